/**
 * First start with an empty database: create a demo account so a new user can send a message within
 * minutes, and print its key once to the terminal (not to the log: keys never go to logs), with a
 * one-time link to choose the portal's email and password for it (src/domain/portal-invites.ts). When the
 * simulator is private, its token is printed with it, once, with the phone page link that opens it.
 */
import type { Gateway } from '../app/build-gateway.ts';
import type { Config } from '../config/config.ts';
import { createAccount } from '../domain/accounts.ts';
import { createApiKey } from '../domain/api-keys.ts';
import { issuePortalInvite } from '../domain/portal-invites.ts';
import { portalInviteLink } from '../lib/portal-links.ts';

export async function seedDemoAccount(gateway: Gateway, config: Readonly<Config>): Promise<void> {
  if ((await gateway.repos.accounts.countAccounts()) > 0) return;
  const account = await createAccount(gateway.repos.accounts, 'Demo');
  const { plainKey } = await createApiKey(gateway.repos.accounts, account.id, 'demo');
  const { accounts, portalInvites } = gateway.repos;
  const invite = await issuePortalInvite(
    { accounts, invites: portalInvites },
    { accountId: account.id },
    Date.now(),
  );
  const rows: [string, string][] = [
    ['accountId', account.id],
    ['apiKey', plainKey],
    ['joinCode', account.joinCode],
    ['sandboxNumber', `+${config.sandboxNumber}`],
    [
      'portalLink',
      `${portalInviteLink(config.publicUrl, invite.token)}  (set the portal's email and password; works once, 72 h)`,
    ],
  ];
  if (config.network === 'simulator' && config.simulator.requireToken) {
    const { token } = config.simulator;
    rows.push(['simulatorToken', `${token}  (later: npm run cli -- simulator token)`]);
    rows.push(['phonePage', `${config.publicUrl}/simulator/phone?token=${token}`]);
  }
  process.stdout.write(
    [
      '',
      'A demo account was created (shown once; keep the key):',
      ...rows.map(([label, value]) => `  ${label.padEnd(15)}${value}`),
      `Have a user send "join ${account.joinCode}" to +${config.sandboxNumber} before sending them messages.`,
      '',
    ].join('\n') + '\n',
  );
}
