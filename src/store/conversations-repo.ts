/**
 * Who may be messaged: sandbox membership (which account a user joined through the shared number) and the
 * 24-hour customer-service window per (business number, user).
 */
import type { Kysely, Transaction } from 'kysely';
import type { ConversationsStore, LinkedUser } from '../domain/ports/conversations.ts';
import { membersWithWindows, pairKey } from './batched-statements.ts';
import { prepare } from './prepared.ts';
import { batchedRead, batchesReads } from './read-batches.ts';
import type { Database } from './schema.ts';

// Both run on every send: compiled once.
const memberOf = prepare(
  (db: Kysely<Database>, sandboxPhone: string, userPhone: string) =>
    db
      .selectFrom('sandbox_members')
      .select('account_id')
      .where('sandbox_phone', '=', sandboxPhone)
      .where('user_phone', '=', userPhone),
  2,
);
const windowOf = prepare(
  (db: Kysely<Database>, businessPhone: string, userPhone: string) =>
    db
      .selectFrom('conversation_windows')
      .select('last_inbound_at')
      .where('business_phone', '=', businessPhone)
      .where('user_phone', '=', userPhone),
  2,
);

/** A sandbox send needs both the membership and the window: one round trip instead of two. */
const memberWithWindow = prepare(
  (db: Kysely<Database>, sandboxPhone: string, userPhone: string) =>
    db
      .selectFrom('sandbox_members as m')
      .leftJoin('conversation_windows as w', (join) =>
        join.onRef('w.business_phone', '=', 'm.sandbox_phone').onRef('w.user_phone', '=', 'm.user_phone'),
      )
      .select(['m.account_id', 'w.last_inbound_at'])
      .where('m.sandbox_phone', '=', sandboxPhone)
      .where('m.user_phone', '=', userPhone),
  2,
);

/** A user's sandbox membership under one key moves to their number, unless the number has one. */
async function moveMembership(trx: Transaction<Database>, business: string, fromKey: string, phone: string) {
  const member = await trx
    .selectFrom('sandbox_members')
    .select('user_phone')
    .where('sandbox_phone', '=', business)
    .where('user_phone', '=', phone)
    .executeTakeFirst();
  const under = trx.deleteFrom('sandbox_members').where('sandbox_phone', '=', business);
  if (member) await under.where('user_phone', '=', fromKey).execute();
  else
    await trx
      .updateTable('sandbox_members')
      .set({ user_phone: phone })
      .where('sandbox_phone', '=', business)
      .where('user_phone', '=', fromKey)
      .execute();
}

/** A user's window under one key moves to their number; the later of two windows stays. */
async function moveWindow(trx: Transaction<Database>, business: string, fromKey: string, phone: string) {
  const window = await trx
    .deleteFrom('conversation_windows')
    .where('business_phone', '=', business)
    .where('user_phone', '=', fromKey)
    .returning('last_inbound_at')
    .executeTakeFirst();
  if (!window) return;
  await trx
    .insertInto('conversation_windows')
    .values({ business_phone: business, user_phone: phone, last_inbound_at: window.last_inbound_at })
    .onConflict((oc) =>
      oc
        .columns(['business_phone', 'user_phone'])
        .doUpdateSet({ last_inbound_at: window.last_inbound_at })
        .where('conversation_windows.last_inbound_at', '<', window.last_inbound_at),
    )
    .execute();
}

function adoptUser(db: Kysely<Database>, business: string, fromKey: string, phone: string): Promise<void> {
  return db.transaction().execute(async (trx) => {
    await moveMembership(trx, business, fromKey, phone);
    await moveWindow(trx, business, fromKey, phone);
  });
}

/** Which phone number goes with which business-scoped user id, per business number (docs/cloud-api.md §10). */
function userLinks(db: Kysely<Database>): Pick<ConversationsStore, 'linkUser' | 'phoneOfUser' | 'adoptUser'> {
  return {
    adoptUser: (businessPhone, fromKey, phone) => adoptUser(db, businessPhone, fromKey, phone),

    async linkUser(businessPhone: string, user: LinkedUser, at: number): Promise<void> {
      await db
        .insertInto('network_users')
        .values({
          business_phone: businessPhone,
          user_id: user.userId,
          phone: user.phone,
          username: user.username,
          updated_at: at,
        })
        .onConflict((oc) =>
          oc.columns(['business_phone', 'user_id']).doUpdateSet((eb) => ({
            // A message that withholds the number keeps the one an earlier message gave.
            phone: eb.fn.coalesce('excluded.phone', 'network_users.phone'),
            username: eb.ref('excluded.username'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    },

    async phoneOfUser(businessPhone: string, userId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('network_users')
        .select('phone')
        .where('business_phone', '=', businessPhone)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.phone ?? undefined;
    },
  };
}

/**
 * The account a sandbox user joined, with the last time they wrote to the sandbox, if ever. Every sandbox
 * send reads it: on PostgreSQL, the reads of concurrent sends go as one statement (./read-batches.ts).
 */
function sandboxMemberships(db: Kysely<Database>): ConversationsStore['sandboxMembership'] {
  const membership = (row: { account_id: string; last_inbound_at: number | null } | undefined) =>
    row && { accountId: row.account_id, lastInboundAt: row.last_inbound_at ?? undefined };
  if (!batchesReads(db))
    return async (sandboxPhone, userPhone) =>
      membership((await memberWithWindow(db, sandboxPhone, userPhone)).rows[0]);
  const read = batchedRead(
    (keys) => membersWithWindows(db, keys),
    (row) => pairKey(row.sandbox_phone, row.user_phone),
  );
  return async (sandboxPhone, userPhone) => membership((await read(pairKey(sandboxPhone, userPhone)))[0]);
}

export function conversationsRepo(db: Kysely<Database>): ConversationsStore {
  return {
    ...userLinks(db),
    /** Binds a user to an account on the sandbox number; joining another account's sandbox moves them. */
    async joinSandbox(sandboxPhone: string, userPhone: string, accountId: string, at: number): Promise<void> {
      await db
        .insertInto('sandbox_members')
        .values({ sandbox_phone: sandboxPhone, user_phone: userPhone, account_id: accountId, joined_at: at })
        .onConflict((oc) =>
          oc.columns(['sandbox_phone', 'user_phone']).doUpdateSet({ account_id: accountId, joined_at: at }),
        )
        .execute();
    },

    async leaveSandbox(sandboxPhone: string, userPhone: string): Promise<boolean> {
      const r = await db
        .deleteFrom('sandbox_members')
        .where('sandbox_phone', '=', sandboxPhone)
        .where('user_phone', '=', userPhone)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async sandboxAccountOf(sandboxPhone: string, userPhone: string): Promise<string | undefined> {
      const { rows } = await memberOf(db, sandboxPhone, userPhone);
      return rows[0]?.account_id;
    },

    sandboxMembership: sandboxMemberships(db),

    async recordInbound(businessPhone: string, userPhone: string, at: number): Promise<void> {
      await db
        .insertInto('conversation_windows')
        .values({ business_phone: businessPhone, user_phone: userPhone, last_inbound_at: at })
        .onConflict((oc) =>
          oc
            .columns(['business_phone', 'user_phone'])
            // A delayed webhook must not shorten the window: keep the later of the two times.
            .doUpdateSet({ last_inbound_at: at })
            .where('conversation_windows.last_inbound_at', '<', at),
        )
        .execute();
    },

    async lastInboundAt(businessPhone: string, userPhone: string): Promise<number | undefined> {
      const { rows } = await windowOf(db, businessPhone, userPhone);
      return rows[0]?.last_inbound_at;
    },
  };
}

export type ConversationsRepo = ConversationsStore;
