/**
 * Operation 5: a contact card. `name.formattedName` is required and at least one phone; a phone without
 * `waId` shows an invite button instead of the message buttons (the contract's note, docs/contract.md §3). Phone kinds are the
 * document's free words, mapped to the network's names where one fits (docs/cloud-api.md §1.3 contacts).
 */
import { Type } from 'typebox';
import { type CommonFields, commonFields, ok, type SendOperation, text } from './send-operation.ts';

/** The document's words (cell, mobile, main, home, work) onto the network's CELL, MAIN, IPHONE, HOME, WORK. */
const PHONE_TYPES: ReadonlyMap<string, string> = new Map([
  ['cell', 'CELL'],
  ['mobile', 'CELL'],
  ['main', 'MAIN'],
  ['iphone', 'IPHONE'],
  ['home', 'HOME'],
  ['work', 'WORK'],
]);

/** A known word in the network's spelling; any other label is passed on upper-cased, as the network shows it. */
const phoneType = (type: string) => PHONE_TYPES.get(type.toLowerCase()) ?? type.toUpperCase();

interface Phone {
  phone: string;
  type?: string;
  waId?: string;
}
interface Name {
  formattedName: string;
  firstName?: string;
  lastName?: string;
}
type Body = CommonFields & { name: Name; phones: Phone[] };
export interface ContactContent {
  name: Name;
  phones: Phone[];
}

const bodySchema = Type.Object(
  {
    ...commonFields,
    name: Type.Object(
      {
        formattedName: text(1, 1000, { description: 'the name as shown on the card' }),
        firstName: Type.Optional(text(1, 1000)),
        lastName: Type.Optional(text(1, 1000)),
      },
      { additionalProperties: false },
    ),
    phones: Type.Array(
      Type.Object(
        {
          phone: text(1, 64),
          type: Type.Optional(text(1, 32, { description: 'e.g. cell, mobile, main, home, work' })),
          waId: Type.Optional(
            text(1, 32, {
              description: 'the WhatsApp user id; without it the card shows an invite button',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      // 20: far beyond a real card, and a bound on what one request can make the network render.
      { minItems: 1, maxItems: 20 },
    ),
  },
  { additionalProperties: false },
);

export const sendContact: SendOperation<Body, ContactContent, typeof bodySchema> = {
  kind: 'contact',
  summary: 'Send a contact card',
  bodySchema,
  // Fields are copied one by one, so the content (which is also the deduplication key) holds exactly the
  // card, and phone kinds are compared in the network's spelling (`mobile` and `CELL` are one card).
  normalize: ({ name, phones }) =>
    ok({
      name: {
        formattedName: name.formattedName,
        ...(name.firstName !== undefined ? { firstName: name.firstName } : {}),
        ...(name.lastName !== undefined ? { lastName: name.lastName } : {}),
      },
      phones: phones.map((p) => ({
        phone: p.phone,
        ...(p.type !== undefined ? { type: phoneType(p.type) } : {}),
        ...(p.waId !== undefined ? { waId: p.waId } : {}),
      })),
    }),
  toCloud: ({ name, phones }) => ({
    type: 'contacts',
    contacts: [
      {
        name: {
          formatted_name: name.formattedName,
          ...(name.firstName !== undefined ? { first_name: name.firstName } : {}),
          ...(name.lastName !== undefined ? { last_name: name.lastName } : {}),
        },
        phones: phones.map((p) => ({
          phone: p.phone,
          ...(p.type !== undefined ? { type: phoneType(p.type) } : {}),
          ...(p.waId !== undefined ? { wa_id: p.waId } : {}),
        })),
      },
    ],
  }),
};
