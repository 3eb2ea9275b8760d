/** `GET /api/v1/contacts?tag=&page=&per_page=`: the account's contacts, oldest first, a page at a time. */
import { Type } from 'typebox';
import { CONTACT_LIMITS, listContacts } from '../../../domain/contacts.ts';
import { success } from '../../envelope.ts';
import { pageOf, pageQuery } from '../../paging.ts';
import type { TypedApp } from '../../typed-app.ts';
import { type ContactRouteDeps, contactView, tags } from './contact-route-shapes.ts';

const ListQuery = Type.Object(
  {
    tag: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'only the contacts with this tag' }),
    ),
    ...pageQuery(CONTACT_LIMITS.perPage, 50),
  },
  { additionalProperties: false },
);

export function registerListContacts(app: TypedApp, deps: ContactRouteDeps): void {
  app.get(
    '/api/v1/contacts',
    { schema: { tags, summary: "The account's contacts, a page at a time", querystring: ListQuery } },
    async (request) => {
      const { page, perPage } = pageOf(request.query, 50);
      const { contacts, total } = await listContacts(deps, request.accountId, {
        tag: request.query.tag,
        page,
        perPage,
      });
      return success({ contacts: contacts.map(contactView), page, perPage, total });
    },
  );
}
