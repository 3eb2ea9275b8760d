/** The numbers store: business numbers registered to accounts, with their network credentials. */

export interface BusinessNumber {
  id: string;
  accountId: string;
  /** Digits with country code, no `+`. */
  phone: string;
  /** The network's id of the number (a numeric string). */
  phoneNumberId: string;
  /** The number's access token, sealed with the install's secret key (src/domain/secrets.ts). */
  sealedAccessToken: string;
  /** False for a number whose inbound traffic the gateway does not see, so it cannot judge the window. */
  sessionCheck: boolean;
  /** The WhatsApp Business Account the number belongs to, when registered with one. */
  wabaId: string | null;
  /** The number's throughput tier in messages per second (Meta: 80 to 1,000); null = the gateway's default. */
  maxSendsPerSecond?: number | null;
  /** Meta's messaging limit of the number: unique users in 24 hours (docs/campaigns.md); null = unlimited. */
  messagingLimit?: number | null;
  createdAt: number;
}

export interface NumbersStore {
  addNumber(input: Omit<BusinessNumber, 'id' | 'createdAt'>): Promise<BusinessNumber>;
  findNumberOfAccount(accountId: string, phone: string): Promise<BusinessNumber | undefined>;
  /** Unscoped on purpose: inbound webhooks carry a phone-number id and no account. */
  findNumberByPhoneNumberId(phoneNumberId: string): Promise<BusinessNumber | undefined>;
  findNumberByPhone(phone: string): Promise<BusinessNumber | undefined>;
  /** The numbers of a WhatsApp Business Account, whichever accounts registered them. */
  numbersOfWaba(wabaId: string): Promise<BusinessNumber[]>;
  listNumbersOfAccount(accountId: string): Promise<BusinessNumber[]>;
  /** Sets the number's throughput tier (null = the default); false when the account has no such number. */
  setThroughput(accountId: string, phone: string, maxSendsPerSecond: number | null): Promise<boolean>;
  /** Sets the number's messaging limit (null = unlimited); false when the account has no such number. */
  setMessagingLimit(accountId: string, phone: string, messagingLimit: number | null): Promise<boolean>;
}
