/** The accounts store: accounts and their API keys, in the domain's terms (the store maps its rows). */

export interface Account {
  id: string;
  name: string;
  /** What a user sends to the sandbox number (`join <code>`) to join this account's sandbox. */
  joinCode: string;
  createdAt: number;
}

/** An API key as it may be shown: never the key itself, never its hash. */
export interface ApiKey {
  id: string;
  accountId: string;
  name: string;
  /** The key's first characters, shown so a person can tell keys apart. */
  prefix: string;
  createdAt: number;
  revokedAt: number | null;
}

/** What authentication needs on every request: the account and the key used. */
export interface KeyOwner {
  accountId: string;
  keyId: string;
}

export interface AccountsStore {
  /** Stores a new account; fails (throws) when its id or join code is taken. */
  insertAccount(account: Account): Promise<void>;
  countAccounts(): Promise<number>;
  listAccounts(): Promise<Account[]>;
  findAccount(accountId: string): Promise<Account | undefined>;
  findAccountByJoinCode(joinCode: string): Promise<Account | undefined>;
  /** Stores a new key with the hash of the key it was made from; the key itself is never stored. */
  insertApiKey(key: ApiKey, hash: string): Promise<void>;
  listKeysOfAccount(accountId: string): Promise<ApiKey[]>;
  /** Revokes by key id or by the key's visible prefix; returns whether a live key was revoked. */
  revokeKeyOfAccount(accountId: string, idOrPrefix: string): Promise<boolean>;
  /** The owner of a live (unrevoked) key with this hash. */
  findLiveKeyOwner(hash: string): Promise<KeyOwner | undefined>;
}
