/**
 * API keys of an account, shared by the portal's settings page and the CLI: the plain key exists only in
 * the answer to its creation; the store keeps its hash (src/domain/secrets.ts) and its visible prefix.
 */
import { newId } from '../lib/ids.ts';
import type { AccountsStore, ApiKey } from './ports/accounts.ts';
import { generateApiKey } from './secrets.ts';

/** The longest key name the portal accepts, in characters. */
export const API_KEY_NAME_MAX = 100;

export interface CreatedApiKey {
  key: ApiKey;
  /** The plain key: shown once, stored nowhere. */
  plainKey: string;
}

export async function createApiKey(
  accounts: AccountsStore,
  accountId: string,
  name: string,
): Promise<CreatedApiKey> {
  const generated = generateApiKey();
  const key: ApiKey = {
    id: newId('key'),
    accountId,
    name,
    prefix: generated.prefix,
    createdAt: Date.now(),
    revokedAt: null,
  };
  await accounts.insertApiKey(key, generated.hash);
  return { key, plainKey: generated.key };
}

export function listApiKeys(accounts: AccountsStore, accountId: string): Promise<ApiKey[]> {
  return accounts.listKeysOfAccount(accountId);
}

/** One key of the account by its id, revoked or not; another account's key is not found. */
export async function findApiKey(
  accounts: AccountsStore,
  accountId: string,
  keyId: string,
): Promise<ApiKey | undefined> {
  return (await accounts.listKeysOfAccount(accountId)).find((k) => k.id === keyId);
}

/** Revokes a live key of the account by its id or prefix; returns whether one was revoked. */
export function revokeApiKey(
  accounts: AccountsStore,
  accountId: string,
  idOrPrefix: string,
): Promise<boolean> {
  return accounts.revokeKeyOfAccount(accountId, idOrPrefix);
}
