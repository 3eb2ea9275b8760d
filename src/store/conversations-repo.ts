/**
 * Who may be messaged: sandbox membership (which account a user joined through the shared number) and the
 * 24-hour customer-service window per (business number, user).
 */
import type { Kysely } from 'kysely';
import type { ConversationsStore } from '../domain/ports/conversations.ts';
import { prepare } from './prepared.ts';
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

export function conversationsRepo(db: Kysely<Database>): ConversationsStore {
  return {
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

    /** The account a sandbox user joined, with the last time they wrote to the sandbox, if ever. */
    async sandboxMembership(
      sandboxPhone: string,
      userPhone: string,
    ): Promise<{ accountId: string; lastInboundAt: number | undefined } | undefined> {
      const { rows } = await memberWithWindow(db, sandboxPhone, userPhone);
      const row = rows[0];
      return row && { accountId: row.account_id, lastInboundAt: row.last_inbound_at ?? undefined };
    },

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
