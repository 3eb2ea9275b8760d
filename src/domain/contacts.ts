/**
 * An account's contacts (docs/contacts.md): the people it messages, known by phone number and/or
 * business-scoped user id (docs/adr/0023), with a name, tags and custom attributes. The rules the API
 * checks (phone numbers with libphonenumber, user ids by their form, tags and attributes within bounds,
 * each refusal a 400 naming the field), and the services the API calls. Users who write to one of the
 * account's numbers become contacts by themselves (inbound.ts).
 */
import { normalizePhone } from '../lib/phone.ts';
import { isUserId } from '../lib/user-id.ts';
import { GatewayError } from './errors.ts';
import { type Contact, type ContactChanges, ContactKeyTaken, type ContactsStore } from './ports/contacts.ts';

export const CONTACT_LIMITS = {
  name: 256,
  tags: 20,
  tag: 64,
  attributes: 50,
  attributeValue: 1024,
  /** Contacts one upsert request may hold. */
  batch: 1000,
  perPage: 200,
} as const;

export interface ContactDeps {
  contacts: ContactsStore;
  now?: () => number;
}

/** A contact as a request gives it: every field optional; an upsert needs `phone` or `userId`. */
export interface ContactInput {
  phone?: string | undefined;
  userId?: string | undefined;
  name?: string | null | undefined;
  tags?: string[] | undefined;
  attributes?: Record<string, string | null> | undefined;
}

const invalid = (field: string, message: string) => new GatewayError('invalid_request', message, { field });
const ATTRIBUTE_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** Letters, digits, spaces and - _ . : / only: a tag is a label, not text. */
const TAG = /^[\p{L}\p{N}][\p{L}\p{N} _\-.:/]*$/u;

function tagsOf(tags: string[], field: string): string[] {
  const clean = [...new Set(tags.map((t) => t.trim()))];
  if (clean.length > CONTACT_LIMITS.tags) {
    throw invalid(field, `\`${field}\` may hold at most ${CONTACT_LIMITS.tags} tags; it has ${clean.length}`);
  }
  clean.forEach((tag, i) => {
    if (tag.length > CONTACT_LIMITS.tag || !TAG.test(tag)) {
      throw invalid(
        `${field}[${i}]`,
        `\`${field}[${i}]\` must be 1 to ${CONTACT_LIMITS.tag} letters, digits, spaces or - _ . : /, starting with a letter or digit`,
      );
    }
  });
  return clean;
}

function attributesOf(attributes: Record<string, string | null>, field: string) {
  const keys = Object.keys(attributes);
  if (keys.length > CONTACT_LIMITS.attributes) {
    throw invalid(
      field,
      `\`${field}\` may hold at most ${CONTACT_LIMITS.attributes} attributes; it has ${keys.length}`,
    );
  }
  for (const key of keys) {
    if (!ATTRIBUTE_KEY.test(key)) {
      throw invalid(
        `${field}.${key}`,
        `\`${field}.${key}\`: an attribute name must be 1 to 64 letters, digits and _, starting with a letter`,
      );
    }
    const value = attributes[key];
    if (value !== null && value !== undefined && [...value].length > CONTACT_LIMITS.attributeValue) {
      throw invalid(
        `${field}.${key}`,
        `\`${field}.${key}\` may be at most ${CONTACT_LIMITS.attributeValue} characters`,
      );
    }
  }
  return attributes;
}

/** The input checked and normalized; `at` prefixes the fields named in refusals (`contacts[3].`). */
export function contactChanges(input: ContactInput, at = '', options = { needsKey: true }): ContactChanges {
  const changes: ContactChanges = {};
  if (input.phone !== undefined) {
    const phone = normalizePhone(input.phone);
    if (!phone) {
      throw invalid(
        `${at}phone`,
        `\`${at}phone\` must be a valid phone number with country code, e.g. +14155550123`,
      );
    }
    changes.phone = phone;
  }
  if (input.userId !== undefined) {
    if (!isUserId(input.userId)) {
      throw invalid(
        `${at}userId`,
        `\`${at}userId\` must be a business-scoped user id such as US.13491208655302741918`,
      );
    }
    changes.userId = input.userId;
  }
  if (options.needsKey && !changes.phone && !changes.userId) {
    throw invalid(`${at}phone`, `\`${at}phone\` or \`${at}userId\` is required: they say who the contact is`);
  }
  if (input.name !== undefined) {
    const name = input.name === null ? null : input.name.trim();
    if (name !== null && (name === '' || [...name].length > CONTACT_LIMITS.name)) {
      throw invalid(`${at}name`, `\`${at}name\` must be 1 to ${CONTACT_LIMITS.name} characters, or null`);
    }
    changes.name = name;
  }
  if (input.tags !== undefined) changes.tags = tagsOf(input.tags, `${at}tags`);
  if (input.attributes !== undefined) changes.attributes = attributesOf(input.attributes, `${at}attributes`);
  return changes;
}

const keyTaken = (field: string) =>
  new GatewayError(
    'conflict',
    `\`${field}\` belongs to another contact of this account; change that contact instead`,
    {
      field,
    },
  );

/** Upserts each contact in order (each checked first, so a bad one changes nothing). */
export async function upsertContacts(
  deps: ContactDeps,
  accountId: string,
  inputs: ContactInput[],
  prefix: (i: number) => string,
): Promise<{ contact: Contact; created: boolean }[]> {
  const checked = inputs.map((input, i) => contactChanges(input, prefix(i)));
  const at = (deps.now ?? Date.now)();
  const results: { contact: Contact; created: boolean }[] = [];
  for (const [i, changes] of checked.entries()) {
    try {
      results.push(await deps.contacts.upsert(accountId, changes, at));
    } catch (error) {
      if (error instanceof ContactKeyTaken) throw keyTaken(`${prefix(i)}userId`);
      throw error;
    }
  }
  return results;
}

/** The account's contact; another account's, or none, is the same 404. */
export async function ownedContact(deps: ContactDeps, accountId: string, id: string): Promise<Contact> {
  const contact = await deps.contacts.find(accountId, id);
  if (!contact) throw new GatewayError('not_found', `no contact ${id} in this account`);
  return contact;
}

export function listContacts(
  deps: ContactDeps,
  accountId: string,
  query: { tag?: string | undefined; page: number; perPage: number },
) {
  const tag = query.tag === undefined ? undefined : query.tag.trim();
  return deps.contacts.list(
    accountId,
    { tag },
    { offset: (query.page - 1) * query.perPage, limit: query.perPage },
  );
}

export async function updateContact(
  deps: ContactDeps,
  accountId: string,
  id: string,
  input: ContactInput,
): Promise<Contact> {
  const changes = contactChanges(input, '', { needsKey: false });
  try {
    const contact = await deps.contacts.update(accountId, id, changes, (deps.now ?? Date.now)());
    if (!contact) throw new GatewayError('not_found', `no contact ${id} in this account`);
    return contact;
  } catch (error) {
    if (error instanceof ContactKeyTaken) throw keyTaken(changes.phone ? 'phone' : 'userId');
    throw error;
  }
}

export async function deleteContact(deps: ContactDeps, accountId: string, id: string): Promise<void> {
  if (!(await deps.contacts.delete(accountId, id))) {
    throw new GatewayError('not_found', `no contact ${id} in this account`);
  }
}
