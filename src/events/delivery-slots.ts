/**
 * The dispatcher's slots: how many deliveries this node runs at once, in all, per account and per endpoint
 * (docs/adr/0015). A slot is taken when a delivery is claimed and freed when its attempt is recorded.
 *
 * An endpoint whose last attempt here failed (an error, a timeout, a refusal) gets one slot until an attempt
 * succeeds: a receiver that is down or hanging is probed one delivery at a time instead of tying up its
 * whole share of the node while its other deliveries wait for their retries anyway.
 */

export interface SlotLimits {
  total: number;
  perAccount: number;
  perEndpoint: number;
}

export interface ClaimPlan {
  /** The most deliveries one claim may start: the free slots. */
  limit: number;
  /** Accounts and endpoints with no free slot, left out of the claim. */
  skipAccounts: string[];
  skipEndpoints: string[];
  /** Whether a candidate (oldest due first) fits in the slots left by the candidates picked before it. */
  pick(candidate: { accountId: string; endpointId: string }): boolean;
}

interface EndpointState {
  running: number;
  failing: boolean;
}

export class DeliverySlots {
  readonly #limits: SlotLimits;
  #running = 0;
  readonly #accounts = new Map<string, number>();
  /** Endpoints with deliveries running, or failing (kept, so the next claim knows). */
  readonly #endpoints = new Map<string, EndpointState>();
  /** What held due deliveries back at the last claim: freeing a slot there may let them start. */
  #blocked = { total: false, accounts: new Set<string>(), endpoints: new Set<string>() };

  constructor(limits: SlotLimits) {
    this.#limits = limits;
  }

  get running(): number {
    return this.#running;
  }

  get free(): number {
    return Math.max(0, this.#limits.total - this.#running);
  }

  #endpointCap(endpointId: string): number {
    return this.#endpoints.get(endpointId)?.failing ? 1 : this.#limits.perEndpoint;
  }

  planClaim(): ClaimPlan {
    const { perAccount } = this.#limits;
    const skipAccounts = [...this.#accounts].filter(([, n]) => n >= perAccount).map(([id]) => id);
    const skipEndpoints = [...this.#endpoints]
      .filter(([id, e]) => e.running >= this.#endpointCap(id))
      .map(([id]) => id);
    const blocked = {
      total: false,
      accounts: new Set(skipAccounts),
      endpoints: new Set(skipEndpoints),
    };
    this.#blocked = blocked;
    const limit = this.free;
    const addedAccounts = new Map<string, number>();
    const addedEndpoints = new Map<string, number>();
    let added = 0;
    const pick = ({ accountId, endpointId }: { accountId: string; endpointId: string }) => {
      const account = (this.#accounts.get(accountId) ?? 0) + (addedAccounts.get(accountId) ?? 0);
      const endpoint =
        (this.#endpoints.get(endpointId)?.running ?? 0) + (addedEndpoints.get(endpointId) ?? 0);
      if (added >= limit) blocked.total = true;
      else if (account >= perAccount) blocked.accounts.add(accountId);
      else if (endpoint >= this.#endpointCap(endpointId)) blocked.endpoints.add(endpointId);
      else {
        added++;
        addedAccounts.set(accountId, (addedAccounts.get(accountId) ?? 0) + 1);
        addedEndpoints.set(endpointId, (addedEndpoints.get(endpointId) ?? 0) + 1);
        if (added >= limit) blocked.total = true;
        return true;
      }
      return false;
    };
    return { limit, skipAccounts, skipEndpoints, pick };
  }

  /** A claimed delivery starts. `failingSince` (the store's) tells a failing endpoint not seen here yet. */
  take(accountId: string, endpointId: string, failingSince: number | null): void {
    this.#running++;
    this.#accounts.set(accountId, (this.#accounts.get(accountId) ?? 0) + 1);
    const endpoint = this.#endpoints.get(endpointId);
    if (endpoint) endpoint.running++;
    else this.#endpoints.set(endpointId, { running: 1, failing: failingSince !== null });
  }

  /** An attempt's outcome, noted as soon as it is known (before it is recorded and its slot freed). */
  noteOutcome(endpointId: string, ok: boolean): void {
    const endpoint = this.#endpoints.get(endpointId);
    if (endpoint) endpoint.failing = !ok;
  }

  /** A delivery's slot is free again; true when that may let a held-back due delivery start. */
  give(accountId: string, endpointId: string): boolean {
    const wasFull = this.#running >= this.#limits.total;
    this.#running--;
    const account = (this.#accounts.get(accountId) ?? 1) - 1;
    if (account > 0) this.#accounts.set(accountId, account);
    else this.#accounts.delete(accountId);
    const endpoint = this.#endpoints.get(endpointId);
    if (endpoint) {
      endpoint.running--;
      if (endpoint.running <= 0 && !endpoint.failing) this.#endpoints.delete(endpointId);
    }
    const blocked = this.#blocked;
    return wasFull || blocked.total || blocked.accounts.has(accountId) || blocked.endpoints.has(endpointId);
  }
}
