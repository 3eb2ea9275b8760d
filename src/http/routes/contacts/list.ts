/** `GET /api/v1/contacts?tag=&page=&per_page=`: the account's contacts, oldest first, a page at a time. */
import { Type } from 'typebox';
import { CONTACT_LIMITS, listContacts } from '../../../domain/contacts.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { type ContactRouteDeps, contactView, tags } from './contact-route-shapes.ts';

const ListQuery = Type.Object(
  {
    tag: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'only the contacts with this tag' }),
    ),
    page: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,6}$',
        'x-rule': 'must be a whole number from 1',
        description: 'from 1',
      }),
    ),
    per_page: Type.Optional(
      Type.String({
        pattern: '^(200|1[0-9]{2}|[1-9][0-9]?)$',
        'x-rule': `must be a whole number from 1 to ${CONTACT_LIMITS.perPage}`,
        description: `1 to ${CONTACT_LIMITS.perPage}, default 50`,
      }),
    ),
  },
  { additionalProperties: false },
);

export function registerListContacts(app: TypedApp, deps: ContactRouteDeps): void {
  app.get(
    '/api/v1/contacts',
    { schema: { tags, summary: "The account's contacts, a page at a time", querystring: ListQuery } },
    async (request) => {
      const page = Number(request.query.page ?? 1);
      const perPage = Number(request.query.per_page ?? 50);
      const { contacts, total } = await listContacts(deps, request.accountId, {
        tag: request.query.tag,
        page,
        perPage,
      });
      return success({ contacts: contacts.map(contactView), page, perPage, total });
    },
  );
}
