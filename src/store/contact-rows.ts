/** A contact's row as both its single upserts (contacts-repo.ts) and its batches (contacts-batch.ts) make it. */
import type { ContactChanges } from '../domain/ports/contacts.ts';
import { newId } from '../lib/ids.ts';
import type { ContactsTable } from './schema.ts';

/** A contact of the account with nothing known yet: the caller sets its keys and fields. */
export function newContactRow(accountId: string, at: number): ContactsTable {
  return {
    id: newId('ctc', at),
    account_id: accountId,
    phone: null,
    user_id: null,
    name: null,
    attributes: '{}',
    created_at: at,
    updated_at: at,
  };
}

/** The stored attributes with the changes merged in: a null value removes its attribute. */
export function mergedAttributes(current: string, changes: ContactChanges['attributes']): string {
  const attributes = JSON.parse(current) as Record<string, string>;
  for (const [key, value] of Object.entries(changes ?? {})) {
    if (value === null) delete attributes[key];
    else attributes[key] = value;
  }
  return JSON.stringify(attributes);
}
