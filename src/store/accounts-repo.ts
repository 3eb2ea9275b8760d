/** Accounts and their API keys. */
import type { Kysely } from 'kysely';
import { generateApiKey, generateJoinCode } from '../domain/secrets.ts';
import { newId } from '../lib/ids.ts';
import { prepare } from './prepared.ts';
import type { AccountsTable, ApiKeysTable, Database } from './schema.ts';

export type Account = AccountsTable;
export type ApiKeyRow = Omit<ApiKeysTable, 'hash'>;

/** What authentication needs on every request: the account and the key used, in one indexed lookup. */
export interface KeyOwner {
  accountId: string;
  keyId: string;
}

// Every request authenticates: the lookup is compiled once (prepared.ts). Keys are not cached, so a
// revocation takes effect at once on every node.
const liveKeyByHash = prepare(
  (db: Kysely<Database>, hash: string) =>
    db
      .selectFrom('api_keys')
      .select(['id', 'account_id'])
      .where('hash', '=', hash)
      .where('revoked_at', 'is', null),
  1,
);

export function accountsRepo(db: Kysely<Database>) {
  return {
    async createAccount(name: string): Promise<Account> {
      // A join code collision is astronomically rare but possible; the unique constraint catches it.
      for (let attempt = 0; ; attempt++) {
        const account: Account = {
          id: newId('acc'),
          name,
          join_code: generateJoinCode(),
          created_at: Date.now(),
        };
        try {
          await db.insertInto('accounts').values(account).execute();
          return account;
        } catch (error) {
          if (attempt >= 4) throw error;
        }
      }
    },

    async countAccounts(): Promise<number> {
      const row = await db
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    listAccounts(): Promise<Account[]> {
      return db.selectFrom('accounts').selectAll().orderBy('created_at').execute();
    },

    findAccount(accountId: string): Promise<Account | undefined> {
      return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
    },

    findAccountByJoinCode(joinCode: string): Promise<Account | undefined> {
      return db.selectFrom('accounts').selectAll().where('join_code', '=', joinCode).executeTakeFirst();
    },

    /** Creates a key; the plain key is in the result and nowhere else, ever. */
    async createKeyForAccount(accountId: string, name: string): Promise<{ row: ApiKeyRow; key: string }> {
      const generated = generateApiKey();
      const row: ApiKeysTable = {
        id: newId('key'),
        account_id: accountId,
        name,
        prefix: generated.prefix,
        hash: generated.hash,
        created_at: Date.now(),
        revoked_at: null,
      };
      await db.insertInto('api_keys').values(row).execute();
      const { hash: _hash, ...visible } = row;
      return { row: visible, key: generated.key };
    },

    listKeysOfAccount(accountId: string): Promise<ApiKeyRow[]> {
      return db
        .selectFrom('api_keys')
        .select(['id', 'account_id', 'name', 'prefix', 'created_at', 'revoked_at'])
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .execute();
    },

    /** Revokes by key id or by the key's visible prefix; returns whether a live key was revoked. */
    async revokeKeyOfAccount(accountId: string, idOrPrefix: string): Promise<boolean> {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: Date.now() })
        .where('account_id', '=', accountId)
        .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('prefix', '=', idOrPrefix)]))
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async findLiveKeyOwner(hash: string): Promise<KeyOwner | undefined> {
      const { rows } = await liveKeyByHash(db, hash);
      const row = rows[0];
      return row && { accountId: row.account_id, keyId: row.id };
    },
  };
}

export type AccountsRepo = ReturnType<typeof accountsRepo>;
