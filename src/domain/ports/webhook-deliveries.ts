/**
 * What the webhook dispatcher (src/events/dispatcher.ts) needs from the store, in domain terms: due
 * deliveries claimed for this node (docs/adr/0015-webhook-delivery-concurrency.md), each with its event and
 * endpoint, and the outcome of each attempt recorded.
 */

export interface ClaimedDelivery {
  delivery: { id: string; accountId: string; attemptCount: number };
  eventId: string;
  eventType: string;
  /** The event envelope, as JSON: the exact bytes that are signed and sent. */
  payload: string;
  endpoint: {
    id: string;
    url: string;
    /** The signing secret, sealed with the install's key. */
    sealedSecret: string;
    /** The secret before the last rotation, still signing until `previousSecretUntil`. */
    previousSealedSecret: string | null;
    previousSecretUntil: number | null;
    disabledAt: number | null;
    /** Since when the endpoint has failed without a success, or null. */
    failingSince: number | null;
  };
}

export interface DueCandidate {
  id: string;
  accountId: string;
  endpointId: string;
}

export interface ClaimRequest {
  now: number;
  lockMs: number;
  /** The most deliveries to read (the dispatcher's free slots). */
  limit: number;
  /** Accounts and endpoints with no free slot: their deliveries are not even read. */
  skipAccounts: readonly string[];
  skipEndpoints: readonly string[];
  /** Called for each candidate, oldest due first: whether the dispatcher starts it now. */
  pick(candidate: DueCandidate): boolean;
}

export interface ClaimResult {
  claimed: ClaimedDelivery[];
  /** As many candidates as the limit were read: more deliveries may be due. */
  more: boolean;
  /** Picked deliveries another node claimed first. */
  lost: number;
  /** Candidates read that the caps held back (not picked). */
  heldBack: number;
}

/** One attempt to deliver, as the receiver answered it (or did not). */
export interface DeliveryAttempt {
  deliveryId: string;
  attemptedAt: number;
  statusCode: number | null;
  latencyMs: number;
  responseBody: string | null;
  error: string | null;
}

/** What an attempt leaves: its record, its delivery's next state, and how its endpoint fared. */
export interface AttemptOutcome {
  attempt: DeliveryAttempt;
  next: { status: 'succeeded' | 'pending' | 'failed'; nextAttemptAt: number; attemptCount: number };
  endpointId: string;
  ok: boolean;
}

export interface DeliveryStore {
  claimDue(request: ClaimRequest): Promise<ClaimResult>;
  /** Gives claims back unattempted (a stopping node), so the deliveries go out at once elsewhere. */
  releaseClaims(deliveryIds: readonly string[]): Promise<void>;
  /**
   * Records a batch of attempts, each with its delivery's new state, and the endpoints' runs of failures
   * (ended by a success, started by a failure); returns the endpoints disabled by a run that lasted
   * `disableAfterMs`.
   */
  recordAttempts(outcomes: readonly AttemptOutcome[], now: number, disableAfterMs: number): Promise<string[]>;
  markDeliveryFailed(deliveryId: string, now: number): Promise<void>;
}
