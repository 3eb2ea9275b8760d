/**
 * A failure of the network while managing templates or flows, as the error the client sees: the network's
 * code and words kept, so the client knows whether to fix, wait or retry. What the failure means is decided
 * once for every caller (network-failure-errors.ts); this adds management's words and its one rule of its
 * own: a refusal because the object is not in the state the action needs is a conflict (409), not a 422.
 */

import { GatewayError } from './errors.ts';
import { attemptsNote, judgeFailure, networkFailureError } from './network-failure-errors.ts';
import type { NetworkFailure } from './ports/network.ts';

export interface ManagedKind {
  /** "template" or "flow", as in "rate limiting template management". */
  noun: string;
  /** What to do before retrying an action whose outcome is unknown. */
  checkFirst: string;
  /** Network codes meaning "not in this state": a 409 rather than a 422. */
  stateCodes?: ReadonlySet<number>;
}

export function managementNetworkError(
  kind: ManagedKind,
  action: string,
  failure: NetworkFailure,
): GatewayError {
  const reason = `(#${failure.code}) ${failure.details}`;
  const verdict = judgeFailure(failure);
  switch (verdict.is) {
    case 'unconfirmed':
      return networkFailureError(
        verdict,
        `The network did not confirm the ${action} (${failure.title}: ${failure.details}); ${kind.checkFirst} before retrying`,
      );
    case 'rate_limited':
    case 'unavailable': {
      const state = verdict.is === 'rate_limited' ? `rate limiting ${kind.noun} management` : 'unavailable';
      return networkFailureError(
        verdict,
        `The network is ${state} ${reason}${attemptsNote(failure)}; nothing changed, retry later`,
      );
    }
    case 'credentials_refused':
      return networkFailureError(verdict, `The network refused the credentials of this number ${reason}`);
    case 'refused':
      if (kind.stateCodes?.has(failure.code))
        return new GatewayError('conflict', `The network refused the ${action} ${reason}`);
      return networkFailureError(verdict, `The network refused the ${action} ${reason}`);
  }
}
