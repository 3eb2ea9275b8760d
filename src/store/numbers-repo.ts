/** Business numbers registered to accounts, with their network credentials (encrypted at rest). */
import type { Kysely } from 'kysely';
import { newId } from '../lib/ids.ts';
import type { BusinessNumbersTable, Database } from './schema.ts';

export type BusinessNumber = BusinessNumbersTable;

export function numbersRepo(db: Kysely<Database>) {
  return {
    async addNumber(input: Omit<BusinessNumber, 'id' | 'created_at'>): Promise<BusinessNumber> {
      const row: BusinessNumber = { ...input, id: newId('num'), created_at: Date.now() };
      await db.insertInto('business_numbers').values(row).execute();
      return row;
    },

    findNumberOfAccount(accountId: string, phone: string): Promise<BusinessNumber | undefined> {
      return db
        .selectFrom('business_numbers')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('phone', '=', phone)
        .executeTakeFirst();
    },

    /** Unscoped on purpose: inbound webhooks carry a phone-number id and no account. */
    findNumberByPhoneNumberId(phoneNumberId: string): Promise<BusinessNumber | undefined> {
      return db
        .selectFrom('business_numbers')
        .selectAll()
        .where('phone_number_id', '=', phoneNumberId)
        .executeTakeFirst();
    },

    findNumberByPhone(phone: string): Promise<BusinessNumber | undefined> {
      return db.selectFrom('business_numbers').selectAll().where('phone', '=', phone).executeTakeFirst();
    },

    listNumbersOfAccount(accountId: string): Promise<BusinessNumber[]> {
      return db
        .selectFrom('business_numbers')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .execute();
    },
  };
}

export type NumbersRepo = ReturnType<typeof numbersRepo>;
