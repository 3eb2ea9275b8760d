/** `GET`, `PATCH` and `DELETE /api/v1/contacts/:id`: one contact of the account (another's is a 404). */
import { deleteContact, ownedContact, updateContact } from '../../../domain/contacts.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { ContactBody, type ContactRouteDeps, contactView, IdParams, tags } from './contact-route-shapes.ts';

export function registerOneContact(app: TypedApp, deps: ContactRouteDeps): void {
  app.get(
    '/api/v1/contacts/:id',
    { schema: { tags, summary: 'Read a contact', params: IdParams } },
    async (request) => success(contactView(await ownedContact(deps, request.accountId, request.params.id))),
  );
  app.patch(
    '/api/v1/contacts/:id',
    {
      schema: {
        tags,
        summary: 'Change a contact: its number, user id, name, tags (replaced) or attributes (merged)',
        params: IdParams,
        body: ContactBody,
      },
    },
    async (request) =>
      success(contactView(await updateContact(deps, request.accountId, request.params.id, request.body))),
  );
  app.delete(
    '/api/v1/contacts/:id',
    { schema: { tags, summary: 'Delete a contact', params: IdParams } },
    async (request) => {
      await deleteContact(deps, request.accountId, request.params.id);
      return success({ id: request.params.id, deleted: true });
    },
  );
}
