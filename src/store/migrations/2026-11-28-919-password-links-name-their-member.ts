/**
 * A password link names the member whose password it sets (`user_id`), so that it can set nobody else's
 * and add nobody (docs/adr/0043-password-links-name-their-member.md). A link with no member is an
 * invitation, which adds a member with its role.
 *
 * Links made before this migration did not say which they were. Each unused one for an email that a
 * member of its account has is bound to that member. Each other unused one with an email and no role was
 * either a command-line invitation of a new owner or the password link of a member removed since: the two
 * cannot be told apart, so they are expired, and the command line makes a new one on request.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('portal_invites').addColumn('user_id', 'text').execute();
  await sql`
    update portal_invites set user_id = (
      select u.id from portal_users u
      where u.email = portal_invites.email and u.account_id = portal_invites.account_id
    )
    where used_at is null and email is not null`.execute(db);
  await sql`
    update portal_invites set expires_at = 0
    where used_at is null and email is not null and role is null and user_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('portal_invites').dropColumn('user_id').execute();
}
