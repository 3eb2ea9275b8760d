/**
 * `GET /api/v1/opt-outs?number=&user=&page=&per_page=`: the users opted out of the marketing of the
 * account's numbers (docs/opt-outs.md), newest first, a page at a time; each as its `contact.opted_out`
 * event said it. Read-only: an opt-out is the user's to lift (START, or resuming in WhatsApp).
 */
import { Type } from 'typebox';
import { listOptOuts, OPT_OUTS_PER_PAGE } from '../../../domain/opt-outs.ts';
import type { OptOutsStore } from '../../../domain/ports/opt-outs.ts';
import { success } from '../../envelope.ts';
import { pageOf, pageQuery } from '../../paging.ts';
import type { TypedApp } from '../../typed-app.ts';

export interface OptOutRouteDeps {
  optOuts: Pick<OptOutsStore, 'list'>;
}

/** Generous outer bounds: what a number or a user is, the domain checks and names (opt-outs.ts). */
const ListQuery = Type.Object(
  {
    number: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "one of the account's numbers, e.g. +14155550123",
      }),
    ),
    user: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 160,
        description: 'one user: a phone number with country code, or a business-scoped user id',
      }),
    ),
    ...pageQuery(OPT_OUTS_PER_PAGE, 50),
  },
  { additionalProperties: false },
);

export function registerOptOutRoutes(app: TypedApp, deps: OptOutRouteDeps): void {
  app.get(
    '/api/v1/opt-outs',
    {
      schema: {
        tags: ['contacts'],
        summary: "Users opted out of the marketing of the account's numbers",
        querystring: ListQuery,
      },
    },
    async (request) => {
      const { page, perPage } = pageOf(request.query, 50);
      const { number, user } = request.query;
      const { optOuts, total } = await listOptOuts(deps.optOuts, request.accountId, {
        number,
        user,
        page,
        perPage,
      });
      return success({ optOuts, page, perPage, total });
    },
  );
}
