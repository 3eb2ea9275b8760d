/** The reference of the contact operations (docs/contacts.md). */
import type { ReferenceTable } from './operation-reference.ts';
import { successBody } from './responses.ts';

const ID = 'ctc_01m8ad6ty5g3v1x7a8rkz0q2mn';
const CONTACT = {
  id: ID,
  phone: '+447911123456',
  userId: null,
  name: 'Amina Otieno',
  tags: ['vip'],
  attributes: { city: 'Nairobi' },
  createdAt: '2026-11-25T22:30:00.000Z',
  updatedAt: '2026-11-25T22:30:00.000Z',
};
const NOT_FOUND = `no contact ${ID} in this account`;
const BAD_PHONE = '`phone` must be a valid phone number with country code, e.g. +14155550123';

export const CONTACT_REFERENCE: ReferenceTable = {
  'POST /api/v1/contacts': {
    operationId: 'upsertContacts',
    description:
      "Makes or changes a contact, found by its phone number, else by its user id: the body is the contact (201 when made, 200 when changed), or `contacts` holds up to 1000 of them. Tags given replace the contact's; attributes given are merged (null removes one).",
    success: { status: 201, description: 'The contact, made.', example: successBody(CONTACT) },
    alsoSuccess: {
      status: 200,
      description:
        'The contact, changed; or, for `contacts`, every contact with how many were made and changed (always 200).',
      example: successBody({ contacts: [CONTACT], created: 0, updated: 1 }),
    },
    errors: {
      400: BAD_PHONE,
      409: '`userId` belongs to another contact of this account; change that contact instead',
    },
    requestExample: {
      phone: '+447911123456',
      name: 'Amina Otieno',
      tags: ['vip'],
      attributes: { city: 'Nairobi' },
    },
  },
  'POST /api/v1/contacts/import': {
    multipart: {
      required: ['file'],
      parts: {
        file: {
          description:
            'A CSV file of up to 100 MB whose first line names the columns: `phone` and/or `user_id`, `name`, `tags` (separated by `;`), and any other column an attribute.',
          file: true,
        },
      },
    },
    operationId: 'importContacts',
    description:
      'Imports contacts from a CSV file, read as it arrives: every valid row is upserted as by POST /api/v1/contacts; every rejected row is reported with its line and why.',
    success: {
      status: 200,
      description: 'How many rows there were, made, changed, and the rejected ones.',
      example: successBody({
        rows: 5,
        created: 3,
        updated: 0,
        rejected: [
          { line: 4, reason: '`phone` must be a valid phone number with country code, e.g. +14155550123' },
        ],
      }),
    },
    errors: {
      400: '`file`: the column "favourite colour" is neither phone, user_id, name nor tags, nor an attribute name (1 to 64 letters, digits and _, starting with a letter)',
      413: '`file` may be at most 100 MB',
    },
  },
  'GET /api/v1/contacts': {
    operationId: 'listContacts',
    description: "This account's contacts, oldest first, a page at a time; `tag` keeps those with the tag.",
    success: {
      status: 200,
      description: 'A page of contacts and how many there are.',
      example: successBody({ contacts: [CONTACT], page: 1, perPage: 50, total: 1 }),
    },
    errors: { 400: 'query parameter `per_page` must be a whole number from 1 to 200' },
  },
  'GET /api/v1/opt-outs': {
    operationId: 'listOptOuts',
    description:
      "Users opted out of the marketing of this account's numbers, newest first, a page at a time, each as its `contact.opted_out` event said it (docs/opt-outs.md): `from` the user, `to` the number, `source` `keyword`, `preference` or `network`. `number` keeps one number's, `user` one user's (a phone number or a business-scoped user id).",
    success: {
      status: 200,
      description: 'A page of opt-outs and how many there are.',
      example: successBody({
        optOuts: [
          {
            from: '447911123456',
            to: '14155550123',
            source: 'keyword',
            keyword: 'STOP',
            timestamp: '2026-11-26T22:16:00.000Z',
          },
        ],
        page: 1,
        perPage: 50,
        total: 1,
      }),
    },
    errors: { 400: '`number` must be a phone number with country code' },
  },
  'GET /api/v1/contacts/{id}': {
    operationId: 'getContact',
    description: 'One contact.',
    success: { status: 200, description: 'The contact.', example: successBody(CONTACT) },
    errors: { 400: 'path parameter `id` must be at most 64 characters', 404: NOT_FOUND },
  },
  'PATCH /api/v1/contacts/{id}': {
    operationId: 'updateContact',
    description:
      "Changes a contact's number, user id, name, tags (replaced) or attributes (merged; null removes one).",
    success: {
      status: 200,
      description: 'The contact as it now is.',
      example: successBody({ ...CONTACT, tags: ['vip', 'newsletter'] }),
    },
    errors: {
      400: BAD_PHONE,
      404: NOT_FOUND,
      409: '`phone` belongs to another contact of this account; change that contact instead',
    },
    requestExample: { tags: ['vip', 'newsletter'] },
  },
  'DELETE /api/v1/contacts/{id}': {
    operationId: 'deleteContact',
    description: 'Deletes a contact.',
    success: { status: 200, description: 'Deleted.', example: successBody({ id: ID, deleted: true }) },
    errors: { 400: 'path parameter `id` must be at most 64 characters', 404: NOT_FOUND },
  },
};
