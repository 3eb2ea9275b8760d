/** Contacts of an account (docs/contacts.md): upsert one or many, import a CSV file, list by tag, read, change, delete. */
import type { TypedApp } from '../../typed-app.ts';
import type { ContactRouteDeps } from './contact-route-shapes.ts';
import { registerImportContacts } from './import.ts';
import { registerListContacts } from './list.ts';
import { registerOneContact } from './one-contact.ts';
import { registerUpsertContacts } from './upsert.ts';

export function registerContactRoutes(app: TypedApp, deps: ContactRouteDeps): void {
  registerUpsertContacts(app, deps);
  registerImportContacts(app, deps);
  registerListContacts(app, deps);
  registerOneContact(app, deps);
}
