/**
 * `POST /api/v1/contacts`: makes or changes one contact (the body is the contact), or many (`contacts`,
 * up to 1000), found by phone number, else by user id. One contact answers 201 when made, 200 when changed.
 */
import { Type } from 'typebox';
import { CONTACT_LIMITS, upsertContacts } from '../../../domain/contacts.ts';
import { GatewayError } from '../../../domain/errors.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import {
  ContactBody,
  ContactFields,
  type ContactRouteDeps,
  contactView,
  tags,
} from './contact-route-shapes.ts';

const UpsertBody = Type.Object(
  {
    ...ContactFields,
    contacts: Type.Optional(
      Type.Array(ContactBody, {
        minItems: 1,
        maxItems: CONTACT_LIMITS.batch,
        description: 'many contacts at once, instead of the fields of one',
      }),
    ),
  },
  { additionalProperties: false },
);

export function registerUpsertContacts(app: TypedApp, deps: ContactRouteDeps): void {
  app.post(
    '/api/v1/contacts',
    {
      schema: {
        tags,
        summary: 'Make or change contacts, found by phone number or user id',
        body: UpsertBody,
      },
    },
    async (request, reply) => {
      const { contacts: many, ...one } = request.body;
      if (many === undefined) {
        const [result] = await upsertContacts(deps, request.accountId, [one], () => '');
        reply.code(result!.created ? 201 : 200);
        return success(contactView(result!.contact));
      }
      if (Object.keys(one).length > 0) {
        const field = Object.keys(one)[0]!;
        throw new GatewayError(
          'invalid_request',
          `\`${field}\` cannot go with \`contacts\`: send one contact or a list`,
          {
            field,
          },
        );
      }
      const results = await upsertContacts(deps, request.accountId, many, (i) => `contacts[${i}].`);
      return success({
        contacts: results.map((r) => contactView(r.contact)),
        created: results.filter((r) => r.created).length,
        updated: results.filter((r) => !r.created).length,
      });
    },
  );
}
