/**
 * What the contact routes share (docs/contacts.md): their dependencies (src/domain/contacts.ts), the
 * request schemas (bounds of size and type; the rules are the domain's) and the contact's wire view.
 */
import { Type } from 'typebox';
import type { ContactDeps } from '../../../domain/contacts.ts';
import type { Contact } from '../../../domain/ports/contacts.ts';

export type ContactRouteDeps = ContactDeps;

export const tags = ['contacts'];
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Generous outer bounds: the precise rules are checked, and named, by the domain. */
export const ContactFields = {
  phone: Type.Optional(
    Type.String({ maxLength: 64, description: 'phone number with country code, e.g. +14155550123' }),
  ),
  userId: Type.Optional(
    Type.String({
      maxLength: 160,
      description: 'business-scoped user id (`userId` of a message.received event)',
    }),
  ),
  name: Type.Optional(
    Type.Union([Type.String({ maxLength: 1024 }), Type.Null()], { description: 'at most 256 characters' }),
  ),
  tags: Type.Optional(
    Type.Array(Type.String({ maxLength: 256 }), {
      maxItems: 100,
      description: 'replaces the tags: at most 20, each at most 64 characters',
    }),
  ),
  attributes: Type.Optional(
    Type.Record(
      Type.String({ maxLength: 128 }),
      Type.Union([Type.String({ maxLength: 4096 }), Type.Null()]),
      {
        description: 'merged into the attributes: strings of at most 1024 characters; null removes one',
      },
    ),
  ),
};

export const ContactBody = Type.Object(ContactFields, { additionalProperties: false });

export function contactView(contact: Contact) {
  return {
    id: contact.id,
    phone: contact.phone === null ? null : `+${contact.phone}`,
    userId: contact.userId,
    name: contact.name,
    tags: contact.tags,
    attributes: contact.attributes,
    createdAt: new Date(contact.createdAt).toISOString(),
    updatedAt: new Date(contact.updatedAt).toISOString(),
  };
}
