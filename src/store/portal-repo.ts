/**
 * The customer portal's own tables: users, sessions (by token hash), sign-in attempts and lockouts.
 * Sessions are found by the hash of the cookie token; everything else a page shows is read through the
 * account-scoped repositories of the API.
 */
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { createAccount } from '../domain/accounts.ts';
import type { Account } from '../domain/ports/accounts.ts';
import type {
  AttemptCount,
  AttemptPolicy,
  Member,
  NewSession,
  PortalStore,
  PortalUser,
  SessionContext,
} from '../domain/ports/portal.ts';
import { isRole, type Role } from '../domain/roles.ts';
import { accountsRepo } from './accounts-repo.ts';
import type { Database, PortalUsersTable } from './schema.ts';

export const portalId = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === '23505' || /UNIQUE constraint failed/i.test(e.message ?? '');
}

const userOf = (row: PortalUsersTable): PortalUser => ({
  id: row.id,
  accountId: row.account_id,
  email: row.email,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
});

class PortalRepository implements PortalStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async findUserByEmail(email: string): Promise<PortalUser | undefined> {
    const row = await this.#db
      .selectFrom('portal_users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();
    return row && userOf(row);
  }

  /**
   * A new Switchboard account and its first portal user, in one transaction: a taken email leaves no
   * account behind. Returns null when the email is taken.
   */
  async signUp(
    input: { email: string; passwordHash: string; businessName: string },
    now: number,
  ): Promise<{ user: PortalUser; account: Account } | null> {
    try {
      return await this.#db.transaction().execute(async (trx) => {
        const account = await createAccount(accountsRepo(trx), input.businessName);
        const user: PortalUsersTable = {
          id: portalId('usr'),
          account_id: account.id,
          email: input.email,
          password_hash: input.passwordHash,
          created_at: now,
        };
        await trx.insertInto('portal_users').values(user).execute();
        return { user: userOf(user), account };
      });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async createSession(session: NewSession): Promise<void> {
    await this.#db
      .insertInto('portal_sessions')
      .values({
        token_hash: session.tokenHash,
        user_id: session.userId,
        account_id: session.accountId,
        csrf_token: session.csrfToken,
        created_at: session.createdAt,
        last_seen_at: session.lastSeenAt,
        expires_at: session.expiresAt,
      })
      .execute();
    await this.#db
      .updateTable('portal_users')
      .set({ last_sign_in_at: session.createdAt })
      .where('id', '=', session.userId)
      .execute();
    // A user's expired sessions are of no use to anyone: clear them while here.
    await this.#db
      .deleteFrom('portal_sessions')
      .where('user_id', '=', session.userId)
      .where('expires_at', '<=', session.createdAt)
      .execute();
  }

  async findLiveSession(tokenHash: string, now: number): Promise<SessionContext | undefined> {
    const row = await this.#db
      .selectFrom('portal_sessions')
      .innerJoin('portal_users', 'portal_users.id', 'portal_sessions.user_id')
      .innerJoin('accounts', 'accounts.id', 'portal_sessions.account_id')
      .select([
        'portal_sessions.token_hash',
        'portal_sessions.user_id',
        'portal_sessions.account_id',
        'portal_sessions.csrf_token',
        'portal_sessions.last_seen_at',
        'portal_sessions.expires_at',
        'portal_users.email',
        'portal_users.role',
        'portal_users.time_zone',
        'accounts.name as account_name',
      ])
      .where('portal_sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.expires_at <= now) {
      await this.deleteSession(tokenHash);
      return undefined;
    }
    return {
      tokenHash: row.token_hash,
      userId: row.user_id,
      email: row.email,
      accountId: row.account_id,
      accountName: row.account_name,
      csrfToken: row.csrf_token,
      lastSeenAt: row.last_seen_at,
      // Unknown to this version (written by a newer one): the least a member may do.
      role: isRole(row.role) ? row.role : 'agent',
      timeZone: row.time_zone ?? null,
    };
  }

  async setTimeZone(userId: string, timeZone: string | null): Promise<void> {
    await this.#db
      .updateTable('portal_users')
      .set({ time_zone: timeZone })
      .where('id', '=', userId)
      .execute();
  }

  async touchSession(tokenHash: string, now: number, idleMs: number): Promise<void> {
    await this.#db
      .updateTable('portal_sessions')
      .set({ last_seen_at: now, expires_at: now + idleMs })
      .where('token_hash', '=', tokenHash)
      .execute();
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.#db.deleteFrom('portal_sessions').where('token_hash', '=', tokenHash).execute();
  }

  /**
   * Counts one sign-in attempt for the email, before its password is checked, in one atomic upsert: the
   * row lock (PostgreSQL) or the single connection (SQLite) orders parallel attempts, on every node, so
   * no two of them can read the same count. An attempt made while locked is counted as over the limit; the
   * attempt that reaches the limit starts the lockout at once (a success then clears it). A window or
   * lockout that has ended starts the count afresh. Returns this attempt's number and the lockout's end
   * (0 when none).
   */
  async countAttempt(email: string, now: number, policy: AttemptPolicy): Promise<AttemptCount> {
    const lockEnd = now + policy.lockoutMs;
    const firstLock = policy.maxFailures <= 1 ? lockEnd : 0;
    const row = await this.#db
      .insertInto('portal_lockouts')
      .values({ email, failures: 1, window_started_at: now, locked_until: firstLock })
      .onConflict((oc) =>
        oc.column('email').doUpdateSet(({ ref }) => {
          const failures = ref('portal_lockouts.failures');
          const started = ref('portal_lockouts.window_started_at');
          const until = ref('portal_lockouts.locked_until');
          const locked = sql<boolean>`${until} > ${now}`;
          const afresh = sql<boolean>`(${until} > 0 or ${started} <= ${now - policy.windowMs})`;
          return {
            failures: sql<number>`case when ${locked} then ${policy.maxFailures + 1}
              when ${afresh} then 1 else ${failures} + 1 end`,
            window_started_at: sql<number>`case when ${locked} then ${started}
              when ${afresh} then cast(${now} as bigint) else ${started} end`,
            locked_until: sql<number>`case when ${locked} then ${until}
              when ${afresh} then cast(${firstLock} as bigint)
              when ${failures} + 1 >= ${policy.maxFailures} then cast(${lockEnd} as bigint) else 0 end`,
          };
        }),
      )
      .returning(['failures', 'locked_until'])
      .executeTakeFirstOrThrow();
    return { attempt: Number(row.failures), lockedUntil: Number(row.locked_until) };
  }

  /** A successful sign-in starts the count afresh. */
  async clearFailures(email: string): Promise<void> {
    await this.#db.deleteFrom('portal_lockouts').where('email', '=', email).execute();
  }

  async listMembers(accountId: string): Promise<Member[]> {
    const rows = await this.#db
      .selectFrom('portal_users')
      .select(['id', 'email', 'created_at', 'last_sign_in_at', 'role'])
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      email: r.email,
      createdAt: Number(r.created_at),
      role: isRole(r.role) ? r.role : 'agent',
      lastSignInAt:
        r.last_sign_in_at === null || r.last_sign_in_at === undefined ? null : Number(r.last_sign_in_at),
    }));
  }

  /** The user and every session of theirs, together; false when the account has no such user. */
  async setRole(accountId: string, userId: string, role: Role): Promise<boolean> {
    const r = await this.#db
      .updateTable('portal_users')
      .set({ role })
      .where('id', '=', userId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async removeMember(accountId: string, userId: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('portal_sessions')
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .execute();
      const removed = await trx
        .deleteFrom('portal_users')
        .where('id', '=', userId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(removed.numDeletedRows) > 0;
    });
  }
}

export function portalRepo(db: Kysely<Database>): PortalStore {
  return new PortalRepository(db);
}
