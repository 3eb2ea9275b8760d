/**
 * Operation 5: a contact card. `name.formattedName` is required and at least one phone; a phone without
 * `waId` shows an invite button instead of the message buttons (the document's note). Phone kinds are the
 * document's free words, mapped to the network's names where one fits.
 */
import { Type } from 'typebox';
import { type CommonFields, commonFields, ok, type SendOperation, text } from './send-operation.ts';

const PHONE_TYPES: Record<string, string> = {
  cell: 'CELL',
  mobile: 'CELL',
  main: 'MAIN',
  iphone: 'IPHONE',
  home: 'HOME',
  work: 'WORK',
};

interface Phone {
  phone: string;
  type?: string;
  waId?: string;
}
type Body = CommonFields & {
  name: { formattedName: string; firstName?: string; lastName?: string };
  phones: Phone[];
};
type Content = Pick<Body, 'name' | 'phones'>;

export const sendContact: SendOperation<Body, Content> = {
  kind: 'contact',
  path: '/api/v1/msg/contact',
  summary: 'Send a contact card',
  bodySchema: Type.Object(
    {
      ...commonFields,
      name: Type.Object(
        {
          formattedName: text(1, 1000),
          firstName: Type.Optional(text(1, 1000)),
          lastName: Type.Optional(text(1, 1000)),
        },
        { additionalProperties: false },
      ),
      phones: Type.Array(
        Type.Object(
          { phone: text(1, 64), type: Type.Optional(text(1, 32)), waId: Type.Optional(text(1, 32)) },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 20 },
      ),
    },
    { additionalProperties: false },
  ),
  normalize: (body) => ok({ name: body.name, phones: body.phones }),
  toCloud: ({ name, phones }) => ({
    type: 'contacts',
    contacts: [
      {
        name: {
          formatted_name: name.formattedName,
          ...(name.firstName ? { first_name: name.firstName } : {}),
          ...(name.lastName ? { last_name: name.lastName } : {}),
        },
        phones: phones.map((p) => ({
          phone: p.phone,
          ...(p.type ? { type: PHONE_TYPES[p.type.toLowerCase()] ?? p.type.toUpperCase() } : {}),
          ...(p.waId ? { wa_id: p.waId } : {}),
        })),
      },
    ],
  }),
};
