/**
 * The dispatcher's claims on due deliveries. A claim sets `locked_until`: until then no other node takes
 * the delivery, and the claims of a node that died expire on their own. The claim is the one unscoped
 * query of the webhooks (it works for every account).
 *
 * A claim takes only what the dispatcher can start at once (docs/adr/0015). It reads the oldest due
 * deliveries, leaving out the accounts and endpoints that have no free slot on this node; the dispatcher
 * picks among them by its caps; only the picked are then marked, each only if it is still due and not
 * claimed (by a node that read the same rows), and on PostgreSQL without waiting for rows another node is
 * marking at that moment (`FOR UPDATE SKIP LOCKED`). Nothing but the picked is ever locked or written.
 */
import type { Kysely } from 'kysely';
import type { ClaimedDelivery, ClaimRequest, ClaimResult } from '../domain/ports/webhook-deliveries.ts';
import { type ClaimRow, postgresClaims, sqliteClaims } from './claim-statements.ts';
import type { Dialect } from './connect.ts';
import type { Database } from './schema.ts';

export function deliveryClaims(db: Kysely<Database>, dialect: Dialect) {
  const statements = dialect === 'postgres' ? postgresClaims : sqliteClaims;
  return {
    async claimDue(request: ClaimRequest): Promise<ClaimResult> {
      const { now, limit } = request;
      const rows = await statements.candidates(db, now, request.skipAccounts, request.skipEndpoints, limit);
      const picked = rows
        .filter((c) => request.pick({ id: c.id, accountId: c.account_id, endpointId: c.endpoint_id }))
        .map((c) => c.id);
      const more = rows.length >= limit;
      const heldBack = rows.length - picked.length;
      if (picked.length === 0) return { claimed: [], more, lost: 0, heldBack };
      const marked = await statements.mark(db, picked, now, now + request.lockMs);
      const order = new Map(picked.map((id, i) => [id, i]));
      marked.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      return {
        claimed: marked.map(claimedDelivery),
        more,
        lost: picked.length - marked.length,
        heldBack,
      };
    },

    /** Gives claims back unattempted (a stopping node), so the deliveries go out at once elsewhere. */
    async releaseClaims(deliveryIds: readonly string[]): Promise<void> {
      if (deliveryIds.length === 0) return;
      await db
        .updateTable('deliveries')
        .set({ locked_until: null })
        .where('id', 'in', deliveryIds)
        .where('status', '=', 'pending')
        .execute();
    },

    /**
     * Frees every claim. Only for a single-node store (SQLite) at start: claims held there belonged to this
     * same gateway before it stopped, and waiting for them to expire would only delay the deliveries.
     */
    async releaseAllClaims(): Promise<void> {
      await db
        .updateTable('deliveries')
        .set({ locked_until: null })
        .where('locked_until', 'is not', null)
        .execute();
    },
  };
}

function claimedDelivery(r: ClaimRow): ClaimedDelivery {
  return {
    delivery: { id: r.id, accountId: r.account_id, attemptCount: r.attempt_count },
    eventId: r.event_id,
    eventType: r.event_type,
    payload: r.event_payload,
    endpoint: {
      id: r.endpoint_id,
      url: r.ep_url,
      sealedSecret: r.ep_secret_enc,
      previousSealedSecret: r.ep_previous_secret_enc,
      previousSecretUntil: r.ep_previous_secret_until,
      disabledAt: r.ep_disabled_at,
      failingSince: r.ep_failing_since,
    },
  };
}
