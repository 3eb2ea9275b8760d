/**
 * One-time portal links (src/domain/portal-invites.ts over src/store/portal-invites-repo.ts), on SQLite and
 * PostgreSQL: a link works once and only while it lives; an invitation makes the account's user, a password
 * link sets the password of its member and of nobody else (nothing once they are removed); an email of
 * another account's user is refused without using the link up; of two submissions of one link at once,
 * exactly one gets in.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { createAccount } from '../../src/domain/accounts.ts';
import { GatewayError } from '../../src/domain/errors.ts';
import {
  findLiveInvite,
  INVITE_TTL_MS,
  issuePortalInvite,
  operatorPortalLink,
  redeemPortalInvite,
} from '../../src/domain/portal-invites.ts';
import type { Store } from '../../src/store/connect.ts';
import * as namingMigration from '../../src/store/migrations/2026-11-28-919-password-links-name-their-member.ts';
import { portalRepo } from '../../src/store/portal-repo.ts';
import { createRepositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const NOW = Date.UTC(2026, 10, 25, 12);

for (const target of targets) {
  describe(`portal links on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: ReturnType<typeof createRepositories>;
    const stores = () => ({ accounts: repos.accounts, invites: repos.portalInvites });
    const user = (email: string, passwordHash = 'scrypt$test') => ({ email, passwordHash });

    openForSuite(target, skip, (opened) => {
      store = opened;
      repos = createRepositories(store);
    });

    test('a link without an email makes a user with the email given, once; the token is not stored', {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Demo');
      const { token, expiresAt } = await issuePortalInvite(stores(), { accountId: account.id }, NOW);
      assert.equal(expiresAt, NOW + INVITE_TTL_MS);
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      const stored = await store.db.selectFrom('portal_invites').selectAll().execute();
      assert.ok(!JSON.stringify(stored).includes(token), 'only the hash of the token is kept');

      const live = await findLiveInvite(repos.portalInvites, token, NOW + 1);
      assert.deepEqual(live, { accountId: account.id, accountName: 'Demo', email: null });
      const first = await redeemPortalInvite(repos.portalInvites, token, user('demo@example.org'), NOW + 2);
      assert.equal(first.kind, 'signed-in');
      assert.equal(first.kind === 'signed-in' && first.user.accountId, account.id);
      const again = await redeemPortalInvite(repos.portalInvites, token, user('other@example.org'), NOW + 3);
      assert.deepEqual(again, { kind: 'gone' });
      assert.equal(await findLiveInvite(repos.portalInvites, token, NOW + 4), undefined);
      const users = await store.db.selectFrom('portal_users').select(['email', 'account_id']).execute();
      assert.deepEqual(
        users.filter((u) => u.account_id === account.id).map((u) => u.email),
        ['demo@example.org'],
      );
    });

    test("pending invitations are listed without their links, and one revoked no longer works; another account's is untouched", {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Pending');
      const other = await createAccount(repos.accounts, 'Other');
      const first = await issuePortalInvite(
        stores(),
        { accountId: account.id, email: 'a@example.org', role: 'agent' },
        NOW,
      );
      await issuePortalInvite(stores(), { accountId: account.id }, NOW + 1);
      await issuePortalInvite(stores(), { accountId: other.id, email: 'o@example.org' }, NOW);
      const pending = await repos.portalInvites.pendingInvitations(account.id, NOW + 2);
      assert.deepEqual(
        pending.map((i) => [i.email, i.role]),
        [
          [null, null],
          ['a@example.org', 'agent'],
        ],
        'newest first, an owner link with no role',
      );
      assert.ok(pending.every((i) => /^[0-9a-f]{16}$/.test(i.ref) && !first.token.includes(i.ref)));
      const ref = pending[1]!.ref;
      const theirs = (await repos.portalInvites.pendingInvitations(other.id, NOW + 2))[0]!.ref;
      assert.equal(await repos.portalInvites.revokeInvitation(account.id, theirs, NOW + 3), false);
      assert.equal(await repos.portalInvites.revokeInvitation(account.id, 'not-a-ref', NOW + 3), false);
      assert.equal(await repos.portalInvites.revokeInvitation(account.id, ref, NOW + 3), true);
      assert.equal(await repos.portalInvites.revokeInvitation(account.id, ref, NOW + 4), false);
      assert.equal(await findLiveInvite(repos.portalInvites, first.token, NOW + 5), undefined);
      assert.equal((await repos.portalInvites.pendingInvitations(account.id, NOW + 5)).length, 1);
      assert.equal((await repos.portalInvites.pendingInvitations(other.id, NOW + 5)).length, 1);
    });

    test('an expired link, or a token never issued, is gone', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Late');
      const { token } = await issuePortalInvite(stores(), { accountId: account.id }, NOW);
      const expired = NOW + INVITE_TTL_MS;
      assert.equal(await findLiveInvite(repos.portalInvites, token, expired), undefined);
      assert.deepEqual(
        await redeemPortalInvite(repos.portalInvites, token, user('late@example.org'), expired),
        {
          kind: 'gone',
        },
      );
      assert.deepEqual(
        await redeemPortalInvite(repos.portalInvites, 'x'.repeat(43), user('late@example.org'), NOW),
        { kind: 'gone' },
      );
    });

    test("a link for an email the account's user has sets that user's password and ends their sessions", {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Reset');
      const first = await issuePortalInvite(
        stores(),
        { accountId: account.id, email: 'Owner@Reset.example' },
        NOW,
      );
      const made = await redeemPortalInvite(
        repos.portalInvites,
        first.token,
        user('owner@reset.example', 'old'),
        NOW,
      );
      assert.equal(made.kind, 'signed-in');
      const userId = made.kind === 'signed-in' ? made.user.userId : '';
      await store.db
        .insertInto('portal_sessions')
        .values({
          token_hash: `session-of-${userId}`,
          user_id: userId,
          account_id: account.id,
          csrf_token: 'c',
          created_at: NOW,
          last_seen_at: NOW,
          expires_at: NOW + INVITE_TTL_MS,
        })
        .execute();

      // The command line's link for a member's email is that member's password link.
      const reset = await operatorPortalLink(
        stores(),
        { accountId: account.id, email: 'owner@reset.example' },
        NOW,
      );
      const redeemed = await redeemPortalInvite(
        repos.portalInvites,
        reset.token,
        user('owner@reset.example', 'new'),
        NOW,
      );
      assert.equal(redeemed.kind === 'signed-in' && redeemed.user.userId, userId, 'the same user');
      const row = await store.db
        .selectFrom('portal_users')
        .selectAll()
        .where('id', '=', userId)
        .executeTakeFirst();
      assert.equal(row?.password_hash, 'new');
      const sessions = await store.db
        .selectFrom('portal_sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .execute();
      assert.equal(sessions.length, 0);
    });

    test('a password link of a member removed before it is used is gone, and adds nobody', {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Removed');
      const invited = await issuePortalInvite(
        stores(),
        { accountId: account.id, email: 'agent@removed.example', role: 'agent' },
        NOW,
      );
      const made = await redeemPortalInvite(
        repos.portalInvites,
        invited.token,
        user('agent@removed.example'),
        NOW,
      );
      assert.equal(made.kind, 'signed-in');
      const memberId = made.kind === 'signed-in' ? made.user.userId : '';
      const link = await issuePortalInvite(
        stores(),
        { accountId: account.id, email: 'agent@removed.example', memberId },
        NOW,
      );
      assert.ok(await portalRepo(store.db).removeMember(account.id, memberId));
      assert.deepEqual(
        await redeemPortalInvite(repos.portalInvites, link.token, user('agent@removed.example', 'new'), NOW),
        { kind: 'gone' },
      );
      const users = await store.db
        .selectFrom('portal_users')
        .select('email')
        .where('account_id', '=', account.id)
        .execute();
      assert.deepEqual(users, [], 'nobody was added, least of all an owner');
    });

    test("an invitation never sets a member's password: refused when made, and when used", {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Invited');
      const open = await issuePortalInvite(stores(), { accountId: account.id, role: 'agent' }, NOW);
      const named = await issuePortalInvite(
        stores(),
        { accountId: account.id, email: 'member@invited.example', role: 'agent' },
        NOW,
      );
      await redeemPortalInvite(
        repos.portalInvites,
        named.token,
        user('member@invited.example', 'theirs'),
        NOW,
      );
      await assert.rejects(
        issuePortalInvite(stores(), { accountId: account.id, email: 'member@invited.example' }, NOW),
        (e: unknown) => e instanceof GatewayError && e.status === 409 && e.field === 'email',
      );
      assert.deepEqual(
        await redeemPortalInvite(
          repos.portalInvites,
          open.token,
          user('member@invited.example', 'mine'),
          NOW,
        ),
        { kind: 'email-taken' },
      );
      const row = await store.db
        .selectFrom('portal_users')
        .select('password_hash')
        .where('email', '=', 'member@invited.example')
        .executeTakeFirst();
      assert.equal(row?.password_hash, 'theirs');
    });

    test('links made before links named their member: bound to the member, or expired when it cannot be told', {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Before');
      const made = await issuePortalInvite(
        stores(),
        { accountId: account.id, email: 'kept@before.example' },
        NOW,
      );
      await redeemPortalInvite(repos.portalInvites, made.token, user('kept@before.example'), NOW);
      const member = await store.db
        .selectFrom('portal_users')
        .select('id')
        .where('email', '=', 'kept@before.example')
        .executeTakeFirstOrThrow();
      // The table as it was: no member named, and every link's kind told only by its email and role.
      const db = store.db as unknown as Kysely<unknown>;
      await db.schema.alterTable('portal_invites').dropColumn('user_id').execute();
      const legacy = (hash: string, email: string | null, role: string | null) => ({
        token_hash: hash,
        account_id: account.id,
        email,
        created_at: NOW,
        expires_at: NOW + INVITE_TTL_MS,
        used_at: null,
        role,
      });
      await store.db
        .insertInto('portal_invites')
        .values([
          legacy('of-a-member', 'kept@before.example', null),
          legacy('of-someone-removed-or-a-new-owner', 'gone@before.example', null),
          legacy('an-invitation-with-a-role', 'agent@before.example', 'agent'),
          legacy('an-open-link', null, null),
        ])
        .execute();
      await namingMigration.up(db);
      const rows = await store.db
        .selectFrom('portal_invites')
        .select(['token_hash', 'user_id', 'expires_at'])
        .where('account_id', '=', account.id)
        .where('used_at', 'is', null)
        .orderBy('token_hash')
        .execute();
      const live = NOW + INVITE_TTL_MS;
      assert.deepEqual(
        rows.map((r) => [r.token_hash, r.user_id ?? null, Number(r.expires_at) === live]),
        [
          ['an-invitation-with-a-role', null, true],
          ['an-open-link', null, true],
          ['of-a-member', member.id, true],
          ['of-someone-removed-or-a-new-owner', null, false],
        ],
      );
    });

    test("another account's email is refused when the link is made, and when it is used, leaving the link usable", {
      skip,
    }, async () => {
      const a = await createAccount(repos.accounts, 'A');
      const b = await createAccount(repos.accounts, 'B');
      const ofA = await issuePortalInvite(stores(), { accountId: a.id }, NOW);
      await redeemPortalInvite(repos.portalInvites, ofA.token, user('shared@example.org'), NOW);

      await assert.rejects(
        issuePortalInvite(stores(), { accountId: b.id, email: 'shared@example.org' }, NOW),
        (e: unknown) => e instanceof GatewayError && e.status === 409 && e.field === 'email',
      );
      await assert.rejects(
        issuePortalInvite(stores(), { accountId: b.id, email: 'not an email' }, NOW),
        (e: unknown) => e instanceof GatewayError && e.status === 400 && e.field === 'email',
      );
      await assert.rejects(
        issuePortalInvite(stores(), { accountId: 'acc_nope' }, NOW),
        (e: unknown) => e instanceof GatewayError && e.status === 404 && e.field === 'accountId',
      );

      const ofB = await issuePortalInvite(stores(), { accountId: b.id }, NOW);
      assert.deepEqual(
        await redeemPortalInvite(repos.portalInvites, ofB.token, user('shared@example.org'), NOW),
        {
          kind: 'email-taken',
        },
      );
      const usable = await redeemPortalInvite(repos.portalInvites, ofB.token, user('b@example.org'), NOW);
      assert.equal(usable.kind === 'signed-in' && usable.user.accountId, b.id);
    });

    test('of two submissions of one link at once, exactly one gets in', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Race');
      const { token } = await issuePortalInvite(stores(), { accountId: account.id }, NOW);
      const outcomes = await Promise.all([
        redeemPortalInvite(repos.portalInvites, token, user('one@race.example'), NOW),
        redeemPortalInvite(repos.portalInvites, token, user('two@race.example'), NOW),
      ]);
      assert.deepEqual(outcomes.map((o) => o.kind).sort(), ['gone', 'signed-in']);
      const users = await store.db
        .selectFrom('portal_users')
        .select('id')
        .where('account_id', '=', account.id)
        .execute();
      assert.equal(users.length, 1);
    });
  });
}
