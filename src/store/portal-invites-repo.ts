/**
 * One-time links into the portal (src/domain/portal-invites.ts), by the SHA-256 of their token. Using one is
 * one transaction: the guarded update that marks it used decides, so two tabs (or two nodes) submitting
 * the same link cannot both get in.
 */
import type { Kysely, Transaction } from 'kysely';
import type {
  InvitedUser,
  LiveInvite,
  PendingInvitation,
  PortalInviteRecord,
  PortalInvitesStore,
  RedeemOutcome,
} from '../domain/ports/portal-invites.ts';
import { isUniqueViolation, portalId } from './portal-repo.ts';
import type { Database } from './schema.ts';

/** How much of a token hash names an invitation on the team page: 64 bits, unique within an account. */
const REF_LENGTH = 16;

/** Thrown inside the transaction to undo an invitation's use when a user has the email already. */
class EmailTaken extends Error {}

class PortalInvitesRepository implements PortalInvitesStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async insertInvite(invite: PortalInviteRecord): Promise<void> {
    await this.#db
      .insertInto('portal_invites')
      .values({
        token_hash: invite.tokenHash,
        account_id: invite.accountId,
        email: invite.email,
        created_at: invite.createdAt,
        expires_at: invite.expiresAt,
        used_at: null,
        role: invite.role ?? null,
        user_id: invite.userId ?? null,
      })
      .execute();
  }

  async pendingInvitations(accountId: string, now: number): Promise<PendingInvitation[]> {
    const rows = await this.#db
      .selectFrom('portal_invites')
      .select(['token_hash', 'email', 'role', 'created_at', 'expires_at'])
      .where('account_id', '=', accountId)
      .where('used_at', 'is', null)
      .where('user_id', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .limit(100)
      .execute();
    return rows.map((row) => ({
      ref: row.token_hash.slice(0, REF_LENGTH),
      email: row.email,
      role: row.role ?? null,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    }));
  }

  async revokeInvitation(accountId: string, ref: string, now: number): Promise<boolean> {
    if (!/^[0-9a-f]{16}$/.test(ref)) return false;
    const result = await this.#db
      .updateTable('portal_invites')
      .set({ expires_at: now })
      .where('account_id', '=', accountId)
      .where('token_hash', '>=', ref)
      .where('token_hash', '<', `${ref}g`)
      .where('used_at', 'is', null)
      .where('user_id', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async userOfEmail(email: string): Promise<{ userId: string; accountId: string } | undefined> {
    const row = await this.#db
      .selectFrom('portal_users')
      .select(['id', 'account_id'])
      .where('email', '=', email)
      .executeTakeFirst();
    return row && { userId: row.id, accountId: row.account_id };
  }

  async accountOfEmail(email: string): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom('portal_users')
      .select('account_id')
      .where('email', '=', email)
      .executeTakeFirst();
    return row?.account_id;
  }

  async findLiveInvite(tokenHash: string, now: number): Promise<LiveInvite | undefined> {
    const row = await this.#db
      .selectFrom('portal_invites')
      .innerJoin('accounts', 'accounts.id', 'portal_invites.account_id')
      .select(['portal_invites.account_id', 'portal_invites.email', 'accounts.name'])
      .where('portal_invites.token_hash', '=', tokenHash)
      .where('portal_invites.used_at', 'is', null)
      .where('portal_invites.expires_at', '>', now)
      .executeTakeFirst();
    return row && { accountId: row.account_id, accountName: row.name, email: row.email };
  }

  async redeemInvite(
    tokenHash: string,
    user: { email: string; passwordHash: string },
    now: number,
  ): Promise<RedeemOutcome> {
    try {
      return await this.#db.transaction().execute(async (trx) => {
        const invite = await trx
          .updateTable('portal_invites')
          .set({ used_at: now })
          .where('token_hash', '=', tokenHash)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .returning(['account_id', 'role', 'user_id'])
          .executeTakeFirst();
        if (!invite) return { kind: 'gone' } as const;
        const signedIn = invite.user_id
          ? await setMemberPassword(trx, invite.account_id, invite.user_id, user.passwordHash)
          : await addMember(trx, invite.account_id, invite.role ?? null, user, now);
        return signedIn ? ({ kind: 'signed-in', user: signedIn } as const) : ({ kind: 'gone' } as const);
      });
    } catch (error) {
      // Another account's user, or one who took the email between the read and the insert.
      if (error instanceof EmailTaken || isUniqueViolation(error)) return { kind: 'email-taken' };
      throw error;
    }
  }
}

/**
 * A password link sets its member's password, and nobody's once they are removed: it never adds anyone
 * (docs/adr/0043-password-links-name-their-member.md). Undefined when the member is gone.
 */
async function setMemberPassword(
  trx: Transaction<Database>,
  accountId: string,
  userId: string,
  passwordHash: string,
): Promise<InvitedUser | undefined> {
  const member = await trx
    .updateTable('portal_users')
    .set({ password_hash: passwordHash })
    .where('id', '=', userId)
    .where('account_id', '=', accountId)
    .returning(['id', 'email'])
    .executeTakeFirst();
  if (!member) return undefined;
  // A new password ends every session of the old one.
  await trx.deleteFrom('portal_sessions').where('user_id', '=', member.id).execute();
  return { userId: member.id, accountId, email: member.email };
}

/** An invitation adds a member; it never sets the password of a user who has the email (EmailTaken). */
async function addMember(
  trx: Transaction<Database>,
  accountId: string,
  role: string | null,
  user: { email: string; passwordHash: string },
  now: number,
): Promise<InvitedUser> {
  const existing = await trx
    .selectFrom('portal_users')
    .select('id')
    .where('email', '=', user.email)
    .executeTakeFirst();
  if (existing) throw new EmailTaken();
  const userId = portalId('usr');
  await trx
    .insertInto('portal_users')
    .values({
      id: userId,
      account_id: accountId,
      email: user.email,
      password_hash: user.passwordHash,
      created_at: now,
      // A link made before roles, or by the command line, adds an owner.
      role: role ?? 'owner',
    })
    .execute();
  return { userId, accountId, email: user.email };
}

export function portalInvitesRepo(db: Kysely<Database>): PortalInvitesStore {
  return new PortalInvitesRepository(db);
}
