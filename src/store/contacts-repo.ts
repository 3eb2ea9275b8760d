/**
 * Contacts (src/domain/ports/contacts.ts): a row per contact, its attributes as a JSON object, and its tags
 * in `contact_tags`. An upsert finds the contact by phone number, else by user id; a new one is inserted
 * with ON CONFLICT DO NOTHING, so that of two upserts of one person at once the second finds the first's
 * contact and changes it instead of failing.
 */
import type { Kysely, Transaction } from 'kysely';
import {
  type Contact,
  type ContactChanges,
  ContactKeyTaken,
  type ContactsStore,
} from '../domain/ports/contacts.ts';
import type { Dialect } from './connect.ts';
import { mergedAttributes, newContactRow } from './contact-rows.ts';
import { upsertBatch } from './contacts-batch.ts';
import { isUniqueViolation } from './portal-repo.ts';
import type { ContactsTable, Database } from './schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

async function withTags(db: Db, rows: ContactsTable[]): Promise<Contact[]> {
  if (rows.length === 0) return [];
  const tags = await db
    .selectFrom('contact_tags')
    .select(['contact_id', 'tag'])
    .where(
      'contact_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('tag')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    phone: r.phone,
    userId: r.user_id,
    name: r.name,
    tags: tags.filter((t) => t.contact_id === r.id).map((t) => t.tag),
    attributes: JSON.parse(r.attributes) as Record<string, string>,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }));
}

function byKey(db: Db, accountId: string, key: { phone?: string | null; userId?: string | null }) {
  const base = db.selectFrom('contacts').selectAll().where('account_id', '=', accountId);
  if (key.phone) return base.where('phone', '=', key.phone).executeTakeFirst();
  if (key.userId) return base.where('user_id', '=', key.userId).executeTakeFirst();
  return Promise.resolve(undefined);
}

/** The contact of this phone number, or else of this user id. */
async function existing(db: Db, accountId: string, changes: ContactChanges) {
  return (
    (await byKey(db, accountId, { phone: changes.phone ?? null })) ??
    (await byKey(db, accountId, { userId: changes.userId ?? null }))
  );
}

async function replaceTags(db: Db, row: ContactsTable, tags: string[] | undefined) {
  if (tags === undefined) return;
  await db.deleteFrom('contact_tags').where('contact_id', '=', row.id).execute();
  if (tags.length === 0) return;
  await db
    .insertInto('contact_tags')
    .values([...new Set(tags)].map((tag) => ({ contact_id: row.id, account_id: row.account_id, tag })))
    .execute();
}

async function change(db: Db, row: ContactsTable, changes: ContactChanges, at: number) {
  const next: ContactsTable = {
    ...row,
    phone: changes.phone ?? row.phone,
    user_id: changes.userId ?? row.user_id,
    name: changes.name === undefined ? row.name : changes.name,
    attributes: mergedAttributes(row.attributes, changes.attributes),
    updated_at: at,
  };
  try {
    await db
      .updateTable('contacts')
      .set({
        phone: next.phone,
        user_id: next.user_id,
        name: next.name,
        attributes: next.attributes,
        updated_at: at,
      })
      .where('id', '=', row.id)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ContactKeyTaken();
    throw error;
  }
  await replaceTags(db, next, changes.tags);
  return next;
}

async function insert(db: Db, accountId: string, changes: ContactChanges, at: number) {
  const row: ContactsTable = {
    ...newContactRow(accountId, at),
    phone: changes.phone ?? null,
    user_id: changes.userId ?? null,
    name: changes.name ?? null,
    attributes: mergedAttributes('{}', changes.attributes),
  };
  const inserted = await db
    .insertInto('contacts')
    .values(row)
    .onConflict((c) => c.doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
  await replaceTags(db, row, changes.tags);
  return row;
}

type Sender = Parameters<ContactsStore['rememberSender']>[1];

function upsertOnce(db: Kysely<Database>, accountId: string, changes: ContactChanges, at: number) {
  return db.transaction().execute(async (trx) => {
    const found = await existing(trx, accountId, changes);
    if (found) return { row: await change(trx, found, changes, at), created: false };
    const row = await insert(trx, accountId, changes, at);
    return row ? { row, created: true } : undefined;
  });
}

async function upsert(db: Kysely<Database>, accountId: string, changes: ContactChanges, at: number) {
  // A concurrent upsert inserted the same person first: the second attempt finds and changes it.
  const done =
    (await upsertOnce(db, accountId, changes, at)) ?? (await upsertOnce(db, accountId, changes, at));
  if (!done) throw new Error('a contact could be neither found nor inserted');
  const [contact] = await withTags(db, [done.row]);
  return { contact: contact!, created: done.created };
}

function rememberSender(db: Kysely<Database>, accountId: string, sender: Sender, at: number) {
  const keys = {
    ...(sender.phone ? { phone: sender.phone } : {}),
    ...(sender.userId ? { userId: sender.userId } : {}),
  };
  return db.transaction().execute(async (trx) => {
    const found = await existing(trx, accountId, keys);
    if (!found) {
      await insert(trx, accountId, { ...keys, name: sender.name }, at);
      return;
    }
    // What the business set is kept; only what the contact lacks is learned from the message.
    const learned: ContactChanges = {};
    if (!found.name && sender.name) learned.name = sender.name;
    if (!found.phone && sender.phone) learned.phone = sender.phone;
    if (!found.user_id && sender.userId) learned.userId = sender.userId;
    if (Object.keys(learned).length > 0) await change(trx, found, learned, at);
  });
}

/** The account's contact row with this id (another account's is none). */
function rowOf(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

async function find(db: Db, accountId: string, id: string) {
  const row = await rowOf(db, accountId, id);
  return row ? (await withTags(db, [row]))[0] : undefined;
}

async function list(
  db: Kysely<Database>,
  accountId: string,
  filter: { tag?: string | undefined },
  page: { offset: number; limit: number },
) {
  let query = db.selectFrom('contacts').where('contacts.account_id', '=', accountId);
  const tag = filter.tag;
  if (tag !== undefined) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('contact_tags')
          .select('contact_tags.contact_id')
          .whereRef('contact_tags.contact_id', '=', 'contacts.id')
          .where('contact_tags.account_id', '=', accountId)
          .where('contact_tags.tag', '=', tag),
      ),
    );
  }
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll('contacts')
    .orderBy('contacts.created_at')
    .orderBy('contacts.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { contacts: await withTags(db, rows), total: Number(total.n) };
}

function update(db: Kysely<Database>, accountId: string, id: string, changes: ContactChanges, at: number) {
  return db.transaction().execute(async (trx) => {
    const row = await rowOf(trx, accountId, id);
    if (!row) return undefined;
    const next = await change(trx, row, changes, at);
    return (await withTags(trx, [next]))[0];
  });
}

function remove(db: Kysely<Database>, accountId: string, id: string) {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('contacts')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return false;
    await trx.deleteFrom('contact_tags').where('contact_id', '=', id).execute();
    return true;
  });
}

/** The account's tags with how many contacts have each, the most used first. */
async function tagsInUse(db: Kysely<Database>, accountId: string, limit: number) {
  const rows = await db
    .selectFrom('contact_tags')
    .where('account_id', '=', accountId)
    .select((eb) => ['tag', eb.fn.countAll<number>().as('n')])
    .groupBy('tag')
    .orderBy('n', 'desc')
    .orderBy('tag')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ tag: row.tag, contacts: Number(row.n) }));
}

export function contactsRepo(db: Kysely<Database>, dialect: Dialect): ContactsStore {
  return {
    upsert: (accountId, changes, at) => upsert(db, accountId, changes, at),
    upsertMany: (accountId, changes, at) => upsertBatch(db, dialect, accountId, changes, at),
    rememberSender: (accountId, sender, at) => rememberSender(db, accountId, sender, at),
    find: (accountId, id) => find(db, accountId, id),
    list: (accountId, filter, page) => list(db, accountId, filter, page),
    update: (accountId, id, changes, at) => update(db, accountId, id, changes, at),
    delete: (accountId, id) => remove(db, accountId, id),
    tagsInUse: (accountId, limit) => tagsInUse(db, accountId, limit),
  };
}
