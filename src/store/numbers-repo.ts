/** Business numbers registered to accounts, with their network credentials (src/domain/ports/numbers.ts). */
import type { Kysely } from 'kysely';
import type { BusinessNumber, NumbersStore } from '../domain/ports/numbers.ts';
import { newId } from '../lib/ids.ts';
import type { BusinessNumbersTable, Database } from './schema.ts';

const numberOf = (row: BusinessNumbersTable): BusinessNumber => ({
  id: row.id,
  accountId: row.account_id,
  phone: row.phone,
  phoneNumberId: row.phone_number_id,
  sealedAccessToken: row.access_token_enc,
  sessionCheck: row.session_check === 1,
  wabaId: row.waba_id ?? null,
  maxSendsPerSecond: row.max_sends_per_second ?? null,
  messagingLimit: row.messaging_limit ?? null,
  createdAt: row.created_at,
});

async function insertNumber(
  db: Kysely<Database>,
  input: Omit<BusinessNumber, 'id' | 'createdAt'>,
): Promise<BusinessNumber> {
  const number: BusinessNumber = {
    ...input,
    maxSendsPerSecond: input.maxSendsPerSecond ?? null,
    messagingLimit: input.messagingLimit ?? null,
    id: newId('num'),
    createdAt: Date.now(),
  };
  await db
    .insertInto('business_numbers')
    .values({
      id: number.id,
      account_id: number.accountId,
      phone: number.phone,
      phone_number_id: number.phoneNumberId,
      access_token_enc: number.sealedAccessToken,
      session_check: number.sessionCheck ? 1 : 0,
      waba_id: number.wabaId,
      max_sends_per_second: number.maxSendsPerSecond ?? null,
      messaging_limit: number.messagingLimit ?? null,
      created_at: number.createdAt,
    })
    .execute();
  return number;
}

/** Changes one setting of an account's number; false when the account has no such number. */
async function updateNumber(
  db: Kysely<Database>,
  accountId: string,
  phone: string,
  set: Partial<Pick<BusinessNumbersTable, 'max_sends_per_second' | 'messaging_limit'>>,
): Promise<boolean> {
  const updated = await db
    .updateTable('business_numbers')
    .set(set)
    .where('account_id', '=', accountId)
    .where('phone', '=', phone)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

export function numbersRepo(db: Kysely<Database>): NumbersStore {
  const one = async (where: (q: ReturnType<typeof selectNumbers>) => ReturnType<typeof selectNumbers>) => {
    const row = await where(selectNumbers(db)).executeTakeFirst();
    return row && numberOf(row);
  };
  return {
    addNumber: (input) => insertNumber(db, input),

    findNumberOfAccount(accountId: string, phone: string) {
      return one((q) => q.where('account_id', '=', accountId).where('phone', '=', phone));
    },

    findNumberByPhoneNumberId(phoneNumberId: string) {
      return one((q) => q.where('phone_number_id', '=', phoneNumberId));
    },

    findNumberByPhone(phone: string) {
      return one((q) => q.where('phone', '=', phone));
    },

    async numbersOfWaba(wabaId: string) {
      // A number registered without its WABA id is its own WABA on the simulated network
      // (src/domain/business-accounts.ts); Graph ids are unique across kinds, so the two never clash.
      const rows = await selectNumbers(db)
        .where((eb) =>
          eb.or([
            eb('waba_id', '=', wabaId),
            eb.and([eb('waba_id', 'is', null), eb('phone_number_id', '=', wabaId)]),
          ]),
        )
        .execute();
      return rows.map(numberOf);
    },

    setThroughput: (accountId, phone, maxSendsPerSecond) =>
      updateNumber(db, accountId, phone, { max_sends_per_second: maxSendsPerSecond }),

    setMessagingLimit: (accountId, phone, messagingLimit) =>
      updateNumber(db, accountId, phone, { messaging_limit: messagingLimit }),

    async listNumbersOfAccount(accountId: string): Promise<BusinessNumber[]> {
      const rows = await selectNumbers(db)
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .execute();
      return rows.map(numberOf);
    },
  };
}

const selectNumbers = (db: Kysely<Database>) => db.selectFrom('business_numbers').selectAll();

export type NumbersRepo = NumbersStore;
