/**
 * Many contact upserts in one transaction and a handful of statements (an import's batch,
 * src/domain/contact-import.ts): the batch's existing contacts are read by their numbers and user ids at
 * once, every change is worked out in memory in the batch's order (a person twice in the batch is one
 * contact), then the new contacts and their tags are written with multi-row inserts. A profile of a
 * 100,000-row import showed statements, not parsing, as its cost: one upsert per row ran six of them.
 *
 * A change that would give a contact the number or user id of another is that row's `taken`, checked in
 * memory, so no statement fails inside the transaction. When a concurrent writer inserted one of the
 * batch's people first (the insert then takes fewer rows), the batch answers null and changes nothing;
 * the caller upserts its rows one by one instead.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { ContactChanges } from '../domain/ports/contacts.ts';
import type { Dialect } from './connect.ts';
import { mergedAttributes, newContactRow } from './contact-rows.ts';
import type { ContactsTable, ContactTagsTable, Database } from './schema.ts';

export type BatchOutcome = 'created' | 'updated' | 'taken';

/**
 * Rows per statement: on PostgreSQL a whole batch, its rows passed as arrays (each statement is a round
 * trip to the server, and a 500-row batch with two tags a row then takes five instead of twenty-two);
 * SQLite runs in the process, where a statement costs no trip, and takes a VALUES list well under the
 * parameters it allows.
 */
const CHUNK: Record<Dialect, number> = { postgres: 5000, sqlite: 100 };

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

async function rowsWithKeys(
  trx: Transaction<Database>,
  dialect: Dialect,
  accountId: string,
  list: ContactChanges[],
) {
  const phones = [...new Set(list.flatMap((c) => (c.phone ? [c.phone] : [])))];
  const userIds = [...new Set(list.flatMap((c) => (c.userId ? [c.userId] : [])))];
  const rows = new Map<string, ContactsTable>();
  const read = async (column: 'phone' | 'user_id', values: string[]) => {
    for (const part of chunks(values, CHUNK[dialect])) {
      const found =
        dialect === 'postgres'
          ? await joinedOn(trx, accountId, column, part)
          : await listedIn(trx, accountId, column, part);
      for (const row of found) rows.set(row.id, row);
    }
  };
  await read('phone', phones);
  await read('user_id', userIds);
  return [...rows.values()];
}

function listedIn(
  trx: Transaction<Database>,
  accountId: string,
  column: 'phone' | 'user_id',
  values: string[],
) {
  return trx
    .selectFrom('contacts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where(column, 'in', values)
    .execute();
}

/**
 * PostgreSQL: the keys as an array, each looked up in the (account, key) index. Written as `IN (...)` (or
 * as a join), a table filled by this very import has statistics too old to show it is large, and the
 * planner then read every contact of the account for each batch (EXPLAIN ANALYZE after 20,000 rows).
 */
async function joinedOn(
  trx: Transaction<Database>,
  accountId: string,
  column: 'phone' | 'user_id',
  values: string[],
) {
  // LATERAL with LIMIT 1: one index lookup per key, whatever the statistics say of the table's size.
  const result = await sql<ContactsTable>`select c.* from unnest(${values}::text[]) as k(key)
    cross join lateral (select * from contacts where account_id = ${accountId}
      and ${sql.ref(column)} = k.key limit 1) as c`.execute(trx);
  return result.rows;
}

/** The batch's contacts in memory, found by number or user id, as each change is applied in order. */
class Book {
  readonly byPhone = new Map<string, ContactsTable>();
  readonly byUser = new Map<string, ContactsTable>();
  readonly fresh = new Set<ContactsTable>();
  readonly changed = new Set<ContactsTable>();
  readonly tags = new Map<ContactsTable, string[]>();

  constructor(rows: ContactsTable[]) {
    for (const row of rows) this.#index(row);
  }

  #unindex(row: ContactsTable) {
    if (row.phone && this.byPhone.get(row.phone) === row) this.byPhone.delete(row.phone);
    if (row.user_id && this.byUser.get(row.user_id) === row) this.byUser.delete(row.user_id);
  }

  #index(row: ContactsTable) {
    if (row.phone) this.byPhone.set(row.phone, row);
    if (row.user_id) this.byUser.set(row.user_id, row);
  }

  apply(accountId: string, changes: ContactChanges, at: number): BatchOutcome {
    const found =
      (changes.phone ? this.byPhone.get(changes.phone) : undefined) ??
      (changes.userId ? this.byUser.get(changes.userId) : undefined);
    const row = found ?? newContactRow(accountId, at);
    const phone = changes.phone ?? row.phone;
    const userId = changes.userId ?? row.user_id;
    // Found by one key, the other may be another contact's: that row is refused, as a single upsert is.
    const otherHolder = [phone && this.byPhone.get(phone), userId && this.byUser.get(userId)].find(
      (r) => r && r !== row,
    );
    if (otherHolder) return 'taken';
    this.#unindex(row);
    Object.assign(row, {
      phone,
      user_id: userId,
      name: changes.name === undefined ? row.name : changes.name,
      attributes: mergedAttributes(row.attributes, changes.attributes),
      updated_at: at,
    });
    this.#index(row);
    if (changes.tags !== undefined) this.tags.set(row, [...new Set(changes.tags)]);
    if (found) {
      if (!this.fresh.has(row)) this.changed.add(row);
      return 'updated';
    }
    this.fresh.add(row);
    return 'created';
  }
}

/** A concurrent writer took one of the batch's people: nothing of the batch is kept. */
class Raced extends Error {}

/** New contacts, as many rows as there are; answers how many were inserted (a conflict inserts none). */
async function insertContacts(trx: Transaction<Database>, dialect: Dialect, rows: ContactsTable[]) {
  if (dialect === 'postgres') {
    // One array a column: eight parameters whatever the rows, which PostgreSQL binds and plans far
    // faster than a VALUES list of thousands, and the gateway builds without a node per value.
    const column = <K extends keyof ContactsTable>(key: K) => rows.map((r) => r[key]);
    const { numAffectedRows } = await sql`insert into contacts
      (id, account_id, phone, user_id, name, attributes, created_at, updated_at)
      select * from unnest(${column('id')}::text[], ${column('account_id')}::text[],
        ${column('phone')}::text[], ${column('user_id')}::text[], ${column('name')}::text[],
        ${column('attributes')}::text[], ${column('created_at')}::bigint[], ${column('updated_at')}::bigint[])
      on conflict do nothing`.execute(trx);
    return Number(numAffectedRows ?? 0);
  }
  const inserted = await trx
    .insertInto('contacts')
    .values(rows)
    .onConflict((c) => c.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0);
}

async function insertTags(trx: Transaction<Database>, dialect: Dialect, rows: ContactTagsTable[]) {
  if (dialect === 'postgres') {
    await sql`insert into contact_tags (contact_id, account_id, tag)
      select * from unnest(${rows.map((r) => r.contact_id)}::text[], ${rows.map((r) => r.account_id)}::text[],
        ${rows.map((r) => r.tag)}::text[])`.execute(trx);
    return;
  }
  await trx.insertInto('contact_tags').values(rows).execute();
}

async function write(trx: Transaction<Database>, dialect: Dialect, book: Book): Promise<void> {
  const size = CHUNK[dialect];
  for (const part of chunks([...book.fresh], size)) {
    if ((await insertContacts(trx, dialect, part)) !== part.length) throw new Raced();
  }
  for (const row of book.changed) {
    const { id, account_id: _a, created_at: _c, ...columns } = row;
    await trx.updateTable('contacts').set(columns).where('id', '=', id).execute();
  }
  const tagged = [...book.tags.keys()];
  for (const part of chunks(
    tagged.filter((row) => !book.fresh.has(row)),
    size,
  )) {
    await trx
      .deleteFrom('contact_tags')
      .where(
        'contact_id',
        'in',
        part.map((r) => r.id),
      )
      .execute();
  }
  const tagRows = tagged.flatMap((row) =>
    (book.tags.get(row) ?? []).map((tag) => ({ contact_id: row.id, account_id: row.account_id, tag })),
  );
  for (const part of chunks(tagRows, size)) await insertTags(trx, dialect, part);
}

/** Each change's outcome in order, or null when a concurrent writer got in first (nothing changed). */
export async function upsertBatch(
  db: Kysely<Database>,
  dialect: Dialect,
  accountId: string,
  list: ContactChanges[],
  at: number,
): Promise<BatchOutcome[] | null> {
  try {
    return await db.transaction().execute(async (trx) => {
      const book = new Book(await rowsWithKeys(trx, dialect, accountId, list));
      const outcomes = list.map((changes) => book.apply(accountId, changes, at));
      await write(trx, dialect, book);
      return outcomes;
    });
  } catch (error) {
    if (error instanceof Raced) return null;
    throw error;
  }
}
