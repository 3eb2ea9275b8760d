/**
 * "Forgot your password?" as a domain rule (src/domain/password-recovery.ts), with ports in memory: the
 * link goes only to a member's own email, nothing is made for an email no member has or without a mail
 * server, and the fourth request for one email within the hour is refused whoever has it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  countPasswordLinkRequest,
  RESET_REQUESTS,
  type RecoveryDeps,
  sendPasswordLink,
} from '../../src/domain/password-recovery.ts';
import type { OutgoingMail } from '../../src/domain/ports/mailer.ts';
import type { AttemptPolicy } from '../../src/domain/ports/portal.ts';
import type { PortalInviteRecord } from '../../src/domain/ports/portal-invites.ts';

const NOW = Date.UTC(2026, 10, 26, 12);
const MEMBER = {
  id: 'usr_1',
  accountId: 'acc_1',
  email: 'amina@shop.example',
  passwordHash: 'scrypt$x',
  createdAt: 0,
};

/** A count that follows the store's rule (src/store/portal-repo.ts, countAttempt) for a fresh key. */
function counter() {
  const counts = new Map<string, { attempt: number; lockedUntil: number }>();
  return async (key: string, now: number, policy: AttemptPolicy) => {
    const c = counts.get(key) ?? { attempt: 0, lockedUntil: 0 };
    c.attempt++;
    if (c.attempt >= policy.maxFailures && c.lockedUntil === 0) c.lockedUntil = now + policy.lockoutMs;
    counts.set(key, c);
    return { ...c };
  };
}

function deps(withMailer = true) {
  const mails: OutgoingMail[] = [];
  const invites: PortalInviteRecord[] = [];
  const recovery: RecoveryDeps = {
    portal: {
      findUserByEmail: async (email) => (email === MEMBER.email ? MEMBER : undefined),
      countAttempt: counter(),
    },
    accounts: {
      findAccount: async (id) =>
        id === MEMBER.accountId ? { id, name: 'Shop', joinCode: 'j', createdAt: 0 } : undefined,
    },
    invites: {
      insertInvite: async (invite) => {
        invites.push(invite);
      },
      userOfEmail: async (email) =>
        email === MEMBER.email ? { userId: MEMBER.id, accountId: MEMBER.accountId } : undefined,
    },
    mailer: withMailer
      ? {
          send: async (mail) => {
            mails.push(mail);
          },
        }
      : null,
    linkOf: (token) => `https://gw.example/app/invite/${token}`,
  };
  return { recovery, mails, invites };
}

test("a member's email gets a link to that address, for their own account", async () => {
  const { recovery, mails, invites } = deps();
  const outcome = await sendPasswordLink(recovery, MEMBER.email, NOW);
  assert.deepEqual(outcome, { kind: 'sent' });
  assert.equal(mails.length, 1);
  assert.equal(mails[0]!.to, MEMBER.email);
  assert.match(mails[0]!.subject, /Set a new Switchboard password/);
  assert.match(mails[0]!.text, /https:\/\/gw\.example\/app\/invite\/[\w-]{43}/);
  assert.deepEqual(
    invites.map((i) => [i.accountId, i.email, i.role, i.userId]),
    [[MEMBER.accountId, MEMBER.email, null, MEMBER.id]],
    'a password link: for that member only, and it keeps their role',
  );
});

test('an email no member has, or a gateway without a mail server, makes nothing', async () => {
  const unknown = deps();
  assert.deepEqual(await sendPasswordLink(unknown.recovery, 'nobody@shop.example', NOW), { kind: 'none' });
  assert.equal(unknown.mails.length + unknown.invites.length, 0);
  const noMail = deps(false);
  assert.deepEqual(await sendPasswordLink(noMail.recovery, MEMBER.email, NOW), { kind: 'none' });
  assert.equal(noMail.invites.length, 0, 'no link that nobody could receive');
});

test('the fourth request for one email within the hour is refused, whoever has the email', async () => {
  for (const email of [MEMBER.email, 'nobody@shop.example']) {
    const { recovery } = deps();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await countPasswordLinkRequest(recovery.portal, email, NOW + i));
    assert.deepEqual(
      answers.map((a) => a.refusedUntil),
      [undefined, undefined, undefined, NOW + 2 + RESET_REQUESTS.lockoutMs],
      email,
    );
  }
});
