/**
 * A send's network failure as the error the client sees, and that every replay of its messageId shows
 * again. What the failure means is decided once for every caller (network-failure-errors.ts); this adds a
 * send's words, which tell whether the same messageId may be retried, and the rules that are a send's own.
 * Retries of what was safe to retry have already been made by the connector (docs/adr/0010).
 */

import { userLabel } from '../lib/user-id.ts';
import { GatewayError } from './errors.ts';
import { attemptsNote, judgeFailure, networkFailureError } from './network-failure-errors.ts';
import type { NetworkFailure } from './ports/network.ts';
import { unknownOutcomeError } from './unknown-outcomes.ts';

/** The network's code for a free-form message outside the 24-hour conversation window. */
const WINDOW_CLOSED = 131047;

export function sendNetworkError(
  failure: NetworkFailure,
  to: string,
  unknownOutcomeMs: number,
): GatewayError {
  const reason = failure.code
    ? `(#${failure.code}) ${failure.details}`
    : `(${failure.title}: ${failure.details})`;
  const verdict = judgeFailure(failure);
  if (verdict.is === 'unconfirmed') return unknownOutcomeError(failure, unknownOutcomeMs);
  if (failure.code === WINDOW_CLOSED) {
    return new GatewayError(
      'session_closed',
      `The network refused a free-form message: no conversation with ${userLabel(to)} is open in the last 24 hours; send a template message to open one ${reason}`,
      { networkCode: WINDOW_CLOSED },
    );
  }
  switch (verdict.is) {
    case 'rate_limited':
    case 'unavailable': {
      const retry = `nothing was sent; retry with the same messageId after ${verdict.retryAfterSeconds} s`;
      // The network's sentences end in a full stop; this message goes on after them.
      const said = reason.replace(/\.\)?$/, (end) => end.slice(1));
      if (verdict.is === 'unavailable')
        return networkFailureError(
          verdict,
          `The network is unavailable ${said}${attemptsNote(failure)}; ${retry}`,
          failure.code,
        );
      if (verdict.byPacing)
        return networkFailureError(
          verdict,
          `Too many sends from this number right now: ${failure.details}; ${retry}`,
          failure.code,
        );
      return networkFailureError(
        verdict,
        `The network is limiting sends from this number ${said}; ${retry}`,
        failure.code,
      );
    }
    case 'refused':
      if (failure.code !== 0)
        return networkFailureError(verdict, `The network refused the message ${reason}`, failure.code);
      // An error status without a Graph code says nothing about the message: for a send it is told as a
      // problem of the business number's credentials (the phone-number id in the path, or the token).
      return credentialsRefused(reason, failure.code);
    case 'credentials_refused':
      return credentialsRefused(reason, failure.code);
  }
}

function credentialsRefused(reason: string, networkCode: number): GatewayError {
  return networkFailureError(
    { is: 'credentials_refused' },
    `The network refused the credentials of this business number ${reason}`,
    networkCode,
  );
}
