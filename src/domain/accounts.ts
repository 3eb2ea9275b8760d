/**
 * Accounts: what a new one gets (a join code for its sandbox), shared by the CLI and the demo seed.
 * Keys are src/domain/api-keys.ts.
 */
import { newId } from '../lib/ids.ts';
import type { Account, AccountsStore } from './ports/accounts.ts';
import { generateJoinCode } from './secrets.ts';

export async function createAccount(accounts: AccountsStore, name: string): Promise<Account> {
  // A join code collision is astronomically rare but possible; the store's unique constraint catches it.
  for (let attempt = 0; ; attempt++) {
    const account: Account = { id: newId('acc'), name, joinCode: generateJoinCode(), createdAt: Date.now() };
    try {
      await accounts.insertAccount(account);
      return account;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
}

export function findAccount(accounts: AccountsStore, accountId: string): Promise<Account | undefined> {
  return accounts.findAccount(accountId);
}

export function listAccounts(accounts: AccountsStore): Promise<Account[]> {
  return accounts.listAccounts();
}
