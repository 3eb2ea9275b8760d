/**
 * One-time links into the portal (src/domain/portal-invites.ts), by the SHA-256 of their token. Using one is
 * one transaction: the guarded update that marks it used decides, so two tabs (or two nodes) submitting
 * the same link cannot both get in.
 */
import type { Kysely } from 'kysely';
import type {
  LiveInvite,
  PortalInviteRecord,
  PortalInvitesStore,
  RedeemOutcome,
} from '../domain/ports/portal-invites.ts';
import { isUniqueViolation, portalId } from './portal-repo.ts';
import type { Database } from './schema.ts';

/** Thrown inside the transaction to undo the link's use when the email belongs to another account. */
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
      })
      .execute();
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
          .returning(['account_id', 'role', 'email'])
          .executeTakeFirst();
        if (!invite) return { kind: 'gone' } as const;
        const existing = await trx
          .selectFrom('portal_users')
          .select(['id', 'account_id'])
          .where('email', '=', user.email)
          .executeTakeFirst();
        // A link sets an existing user's password only when it was made for their email (a password
        // link): one whose opener chose the email would let its maker sign in as any member.
        if (existing && (existing.account_id !== invite.account_id || invite.email === null))
          throw new EmailTaken();
        let userId = existing?.id;
        if (userId) {
          await trx
            .updateTable('portal_users')
            .set({ password_hash: user.passwordHash })
            .where('id', '=', userId)
            .execute();
          // A new password ends every session of the old one.
          await trx.deleteFrom('portal_sessions').where('user_id', '=', userId).execute();
        } else {
          userId = portalId('usr');
          await trx
            .insertInto('portal_users')
            .values({
              id: userId,
              account_id: invite.account_id,
              email: user.email,
              password_hash: user.passwordHash,
              created_at: now,
              // A link made before roles, or by the command line, adds an owner.
              role: invite.role ?? 'owner',
            })
            .execute();
        }
        return {
          kind: 'signed-in',
          user: { userId, accountId: invite.account_id, email: user.email },
        } as const;
      });
    } catch (error) {
      // Another account's user, or one who took the email between the read and the insert.
      if (error instanceof EmailTaken || isUniqueViolation(error)) return { kind: 'email-taken' };
      throw error;
    }
  }
}

export function portalInvitesRepo(db: Kysely<Database>): PortalInvitesStore {
  return new PortalInvitesRepository(db);
}
