/**
 * First start with an empty database: create a demo account so a new user can send a message within
 * minutes, and print its key once to the terminal (not to the log: keys never go to logs).
 */
import type { Gateway } from '../app.ts';
import type { Config } from '../config/config.ts';

export async function seedDemoAccount(gateway: Gateway, config: Readonly<Config>): Promise<void> {
  if ((await gateway.repos.accounts.countAccounts()) > 0) return;
  const account = await gateway.repos.accounts.createAccount('Demo');
  const { key } = await gateway.repos.accounts.createKeyForAccount(account.id, 'demo');
  process.stdout.write(
    [
      '',
      'A demo account was created (shown once; keep the key):',
      `  accountId     ${account.id}`,
      `  apiKey        ${key}`,
      `  joinCode      ${account.join_code}`,
      `  sandboxNumber +${config.sandboxNumber}`,
      `Have a user send "join ${account.join_code}" to +${config.sandboxNumber} before sending them messages.`,
      '',
    ].join('\n') + '\n',
  );
}
