/** Accounts and their API keys (src/domain/ports/accounts.ts). */
import type { Kysely } from 'kysely';
import type { Account, AccountsStore, ApiKey } from '../domain/ports/accounts.ts';
import { liveKeysByHash } from './batched-statements.ts';
import { prepare } from './prepared.ts';
import { batchedRead, batchesReads } from './read-batches.ts';
import type { AccountsTable, ApiKeysTable, Database } from './schema.ts';

const accountOf = (row: AccountsTable): Account => ({
  id: row.id,
  name: row.name,
  joinCode: row.join_code,
  createdAt: row.created_at,
});

const keyOf = (row: Omit<ApiKeysTable, 'hash'>): ApiKey => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

// Every request authenticates: the lookup is compiled once (prepared.ts), and on PostgreSQL the lookups of
// concurrent requests go as one statement (read-batches.ts). Keys are not cached, so a revocation takes
// effect at once on every node.
const liveKeyByHash = prepare(
  (db: Kysely<Database>, hash: string) =>
    db
      .selectFrom('api_keys')
      .select(['id', 'account_id'])
      .where('hash', '=', hash)
      .where('revoked_at', 'is', null),
  1,
);

class AccountsRepository implements AccountsStore {
  readonly #db: Kysely<Database>;
  readonly #liveKeys: (hash: string) => Promise<{ id: string; account_id: string }[]>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
    this.#liveKeys = batchesReads(db)
      ? batchedRead(
          (hashes) => liveKeysByHash(db, hashes),
          (row) => row.hash,
        )
      : async (hash) => (await liveKeyByHash(db, hash)).rows;
  }

  async insertAccount(account: Account): Promise<void> {
    await this.#db
      .insertInto('accounts')
      .values({
        id: account.id,
        name: account.name,
        join_code: account.joinCode,
        created_at: account.createdAt,
      })
      .execute();
  }

  async countAccounts(): Promise<number> {
    const row = await this.#db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async listAccounts(): Promise<Account[]> {
    const rows = await this.#db.selectFrom('accounts').selectAll().orderBy('created_at').execute();
    return rows.map(accountOf);
  }

  async findAccount(accountId: string): Promise<Account | undefined> {
    const row = await this.#db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', accountId)
      .executeTakeFirst();
    return row && accountOf(row);
  }

  async findAccountByJoinCode(joinCode: string): Promise<Account | undefined> {
    const row = await this.#db
      .selectFrom('accounts')
      .selectAll()
      .where('join_code', '=', joinCode)
      .executeTakeFirst();
    return row && accountOf(row);
  }

  async insertApiKey(key: ApiKey, hash: string): Promise<void> {
    await this.#db
      .insertInto('api_keys')
      .values({
        id: key.id,
        account_id: key.accountId,
        name: key.name,
        prefix: key.prefix,
        hash,
        created_at: key.createdAt,
        revoked_at: key.revokedAt,
      })
      .execute();
  }

  async listKeysOfAccount(accountId: string): Promise<ApiKey[]> {
    const rows = await this.#db
      .selectFrom('api_keys')
      .select(['id', 'account_id', 'name', 'prefix', 'created_at', 'revoked_at'])
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .execute();
    return rows.map(keyOf);
  }

  /** Revokes by key id or by the key's visible prefix; returns whether a live key was revoked. */
  async revokeKeyOfAccount(accountId: string, idOrPrefix: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('api_keys')
      .set({ revoked_at: Date.now() })
      .where('account_id', '=', accountId)
      .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('prefix', '=', idOrPrefix)]))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async findLiveKeyOwner(hash: string) {
    const row = (await this.#liveKeys(hash))[0];
    return row && { accountId: row.account_id, keyId: row.id };
  }
}

export function accountsRepo(db: Kysely<Database>): AccountsStore {
  return new AccountsRepository(db);
}
