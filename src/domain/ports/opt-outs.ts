/**
 * Opt-outs of a business number's marketing (docs/opt-outs.md), in the domain's terms
 * (src/store/opt-outs-repo.ts maps its rows). Every read and change is scoped by account.
 */

export interface OptOut {
  businessPhone: string;
  /** The user's key (docs/adr/0023): their phone number, or their business-scoped user id. */
  user: string;
  at: number;
  /**
   * `keyword`: the user sent one; `network`: the network refused marketing to them (131050);
   * `preference`: the user stopped (or resumed) the number's marketing in WhatsApp's own settings.
   */
  source: 'keyword' | 'network' | 'preference';
  keyword: string | null;
}

export interface OptOutsStore {
  /**
   * Records the opt-out and its `contact.opted_out` event (built by `event`) together; false, with no
   * event, when the user was opted out already.
   */
  optOut(accountId: string, optOut: OptOut, event: (optOut: OptOut) => unknown): Promise<boolean>;
  /** Removes the opt-out and records `contact.opted_in` together; false when there was none. */
  optIn(accountId: string, optIn: OptOut, event: (optIn: OptOut) => unknown): Promise<boolean>;
  find(accountId: string, businessPhone: string, user: string): Promise<OptOut | undefined>;
  /** A page of the account's opt-outs in force, newest first; `businessPhone` and `user` narrow it. */
  list(
    accountId: string,
    filter: { businessPhone?: string | undefined; user?: string | undefined },
    page: { offset: number; limit: number },
  ): Promise<{ optOuts: OptOut[]; total: number }>;
}
