/**
 * The one mapping of network failures to client errors (src/domain/network-failure-errors.ts): every
 * failure the network layer makes, made by the code that makes it, through the send, template and flow
 * mappings; decisions follow the typed fields and never the words; recorded failures keep their shape.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GatewayError } from '../../src/domain/errors.ts';
import { flowNetworkError } from '../../src/domain/flows/network-failure.ts';
import { judgeFailure } from '../../src/domain/network-failure-errors.ts';
import type { NetworkFailure } from '../../src/domain/ports/network.ts';
import { sendNetworkError } from '../../src/domain/send-network-error.ts';
import { templateNetworkError } from '../../src/domain/templates/template-network-error.ts';
import {
  expiredOutcome,
  INTERRUPTED,
  recordedFailure,
  storedUnknown,
  unknownOutcomeError,
} from '../../src/domain/unknown-outcomes.ts';
import { failureFromGraphResponse } from '../../src/network/graph-errors.ts';
import { SendPacer } from '../../src/network/send-pacer.ts';
import { transportFailure } from '../../src/network/transport-failure.ts';

const UNKNOWN_OUTCOME_MS = 300_000;
const TO = '254712345678';

const graphError = (code: number, details = 'Something went wrong.') => ({
  error: { message: 'Graph says', code, error_data: { details } },
});

const timedOut = () =>
  transportFailure(new DOMException('The operation was aborted due to timeout', 'TimeoutError'), 300);
const socketClosed = () =>
  transportFailure(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), 300);
const refusedConnection = () =>
  transportFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 300);

async function pacingRefusal(): Promise<NetworkFailure> {
  // One send per second and no wait allowed: the second send in a row is refused before it is sent.
  const pacer = new SendPacer({ maxSendsPerSecond: 1, maxWaitMs: 0 });
  const credentials = { phoneNumberId: '100200300', accessToken: 'token' };
  assert.equal(await pacer.admit(credentials), undefined);
  const refused = await pacer.admit(credentials);
  assert.ok(refused, 'the pacer refuses the second send');
  return refused;
}

/** What a client is answered: the status, the code and the wait it is told, if any. */
function answer(error: GatewayError): { status: number; code: string; retryAfterSeconds?: number } {
  return {
    status: error.status,
    code: error.code,
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
  };
}

const send = (failure: NetworkFailure) => answer(sendNetworkError(failure, TO, UNKNOWN_OUTCOME_MS));
const template = (failure: NetworkFailure) => answer(templateNetworkError('template edit', failure));
const flow = (failure: NetworkFailure) => answer(flowNetworkError('publication', failure));

describe('where failures are made, their cause is set', () => {
  test('transport failures: a connection never made, a timeout, a connection broken mid-request', () => {
    assert.deepEqual([refusedConnection().kind, refusedConnection().cause], ['transient', 'unreachable']);
    assert.deepEqual([timedOut().kind, timedOut().cause], ['unknown_outcome', 'timeout']);
    assert.deepEqual([socketClosed().kind, socketClosed().cause], ['unknown_outcome', 'connection_lost']);
    // An abort is the timeout's own signal firing, whatever its message says.
    const aborted = transportFailure(new DOMException('This operation was aborted', 'AbortError'), 300);
    assert.equal(aborted.cause, 'timeout');
  });

  test('answers: a Graph error, or an error status alone', () => {
    assert.equal(failureFromGraphResponse(400, graphError(100), null).cause, 'graph');
    assert.equal(failureFromGraphResponse(500, { error: { message: 'x' } }, null).cause, 'graph');
    assert.equal(failureFromGraphResponse(404, null, null).cause, 'http');
    assert.equal(failureFromGraphResponse(502, '<html>', null).cause, 'http');
  });

  test('the gateway: its pacing, and a send it stopped in the middle of', async () => {
    const paced = await pacingRefusal();
    assert.deepEqual([paced.kind, paced.cause, paced.throttled], ['transient', 'pacing', true]);
    assert.equal(INTERRUPTED.cause, 'interrupted');
  });
});

describe('every failure gets its error, for sends, templates and flows alike', () => {
  test('a timeout: 504, the outcome unknown', () => {
    const expected = { status: 504, code: 'network_timeout' };
    assert.deepEqual(
      [send(timedOut()), template(timedOut()), flow(timedOut())],
      [expected, expected, expected],
    );
  });

  test('a connection lost, an error status alone with 5xx, an interrupted send: 502, the outcome unknown', () => {
    const expected = { status: 502, code: 'network_error' };
    const proxyPage = failureFromGraphResponse(502, '<html>', null);
    assert.equal(proxyPage.kind, 'unknown_outcome');
    for (const failure of [socketClosed(), proxyPage, INTERRUPTED]) {
      assert.deepEqual([send(failure), template(failure), flow(failure)], [expected, expected, expected]);
    }
  });

  test('the network limiting the rate: 503 with its Retry-After', () => {
    const throttled = failureFromGraphResponse(429, graphError(130429), '7');
    const expected = { status: 503, code: 'network_unavailable', retryAfterSeconds: 7 };
    assert.deepEqual([send(throttled), template(throttled), flow(throttled)], [expected, expected, expected]);
  });

  test("the gateway's own pacing: 503 with the wait it computed, worded as the number's own rate", async () => {
    const paced = await pacingRefusal();
    const error = sendNetworkError(paced, TO, UNKNOWN_OUTCOME_MS);
    assert.equal(error.status, 503);
    assert.equal(error.code, 'network_unavailable');
    assert.equal(error.retryAfterSeconds, Math.max(1, Math.ceil((paced.retryAfterMs ?? 0) / 1000)));
    assert.match(
      error.message,
      /^Too many sends from this number right now: sends from this number are paced/,
    );
  });

  test('the network unavailable or unreachable: 502 with a retry, and the tries made', () => {
    const down = { ...failureFromGraphResponse(503, graphError(131016), null), attempts: 3 };
    const expected = { status: 502, code: 'network_error', retryAfterSeconds: 1 };
    for (const failure of [down, refusedConnection()]) {
      assert.deepEqual([send(failure), template(failure), flow(failure)], [expected, expected, expected]);
    }
    assert.match(sendNetworkError(down, TO, UNKNOWN_OUTCOME_MS).message, /\(3 attempts\); nothing was sent/);
    assert.match(templateNetworkError('template edit', down).message, /\(3 attempts\); nothing changed/);
  });

  test('credentials refused (code 190, or HTTP 401): 502', () => {
    const expected = { status: 502, code: 'network_error' };
    for (const failure of [
      failureFromGraphResponse(400, graphError(190), null),
      failureFromGraphResponse(401, null, null),
    ]) {
      assert.equal(failure.kind, 'permanent');
      assert.deepEqual([send(failure), template(failure), flow(failure)], [expected, expected, expected]);
    }
  });

  test('a refusal: 422, a conflict for a flow not in the state, a closed window for a send', () => {
    const invalid = failureFromGraphResponse(400, graphError(100), null);
    const rejected = { status: 422, code: 'network_rejected' };
    assert.deepEqual([send(invalid), template(invalid), flow(invalid)], [rejected, rejected, rejected]);

    const notDraft = failureFromGraphResponse(400, graphError(139002), null);
    assert.deepEqual(flow(notDraft), { status: 409, code: 'conflict' });
    assert.deepEqual(template(notDraft), rejected, 'state codes are the flows API own');

    const windowClosed = failureFromGraphResponse(400, graphError(131047), null);
    assert.deepEqual(send(windowClosed), { status: 422, code: 'session_closed' });
    assert.deepEqual(template(windowClosed), rejected);
  });

  test('an error status without a Graph code: the credentials for a send, a refusal for management', () => {
    const bare = failureFromGraphResponse(404, null, null);
    assert.deepEqual(send(bare), { status: 502, code: 'network_error' });
    assert.match(
      sendNetworkError(bare, TO, UNKNOWN_OUTCOME_MS).message,
      /credentials of this business number/,
    );
    assert.deepEqual(template(bare), { status: 422, code: 'network_rejected' });
  });

  test('a success the gateway cannot read: unknown for a send, refused for management', () => {
    const unreadableSend: NetworkFailure = {
      kind: 'unknown_outcome',
      cause: 'unexpected_answer',
      code: 0,
      httpStatus: 200,
      title: 'unexpected network answer',
      details: '{}',
    };
    assert.deepEqual(send(unreadableSend), { status: 502, code: 'network_error' });
    const unreadableCall: NetworkFailure = { ...unreadableSend, kind: 'permanent' };
    assert.deepEqual(flow(unreadableCall), { status: 422, code: 'network_rejected' });
  });
});

describe('decisions follow the typed fields, never the words', () => {
  test('a timeout is a timeout whatever its title, and a title alone makes none', () => {
    const renamed = { ...timedOut(), title: 'no answer in time' };
    assert.equal(unknownOutcomeError(renamed, UNKNOWN_OUTCOME_MS).status, 504);
    assert.equal(templateNetworkError('template edit', renamed).status, 504);
    assert.equal(flowNetworkError('publication', renamed).status, 504);

    const mislabelled = { ...socketClosed(), title: 'network timeout' };
    assert.equal(unknownOutcomeError(mislabelled, UNKNOWN_OUTCOME_MS).status, 502);
    assert.equal(templateNetworkError('template edit', mislabelled).status, 502);
    assert.equal(flowNetworkError('publication', mislabelled).status, 502);
  });

  test('the verdict of each kind', async () => {
    assert.deepEqual(judgeFailure(timedOut()), { is: 'unconfirmed', timedOut: true });
    assert.deepEqual(judgeFailure(await pacingRefusal()), {
      is: 'rate_limited',
      byPacing: true,
      retryAfterSeconds: 1,
    });
    assert.deepEqual(judgeFailure(failureFromGraphResponse(429, graphError(130429), '2')), {
      is: 'rate_limited',
      byPacing: false,
      retryAfterSeconds: 2,
    });
    assert.deepEqual(judgeFailure(refusedConnection()), { is: 'unavailable', retryAfterSeconds: 1 });
    assert.deepEqual(judgeFailure(failureFromGraphResponse(401, null, null)), { is: 'credentials_refused' });
    assert.deepEqual(judgeFailure(failureFromGraphResponse(400, graphError(100), null)), { is: 'refused' });
  });
});

describe("the network's code rides along for the gateway's own decisions", () => {
  test('a refusal, a throttle and a closed window carry it; a failure without one carries none', () => {
    const codeOf = (failure: NetworkFailure) => sendNetworkError(failure, TO, UNKNOWN_OUTCOME_MS).networkCode;
    assert.equal(codeOf(failureFromGraphResponse(400, graphError(131048), null)), 131048);
    assert.equal(codeOf(failureFromGraphResponse(429, graphError(130429), '3')), 130429);
    assert.equal(codeOf(failureFromGraphResponse(400, graphError(131047), null)), 131047);
    assert.equal(codeOf(failureFromGraphResponse(401, graphError(190), null)), 190);
    assert.equal(codeOf(refusedConnection()), undefined);
    assert.equal(codeOf(timedOut()), undefined);
  });
});

describe('recorded failures keep the shape clients read', () => {
  test('a stored unknown outcome is byte for byte what it always was', () => {
    assert.equal(
      JSON.stringify(recordedFailure(timedOut())),
      '{"kind":"unknown_outcome","code":0,"httpStatus":0,"title":"network timeout","details":"no answer within 300 ms"}',
    );
    const stored = JSON.parse(storedUnknown(timedOut(), UNKNOWN_OUTCOME_MS));
    assert.deepEqual(Object.keys(stored.network), ['kind', 'code', 'httpStatus', 'title', 'details']);
  });

  test('an expired outcome, and one whose record is unreadable, carry no cause either', () => {
    const expired = JSON.parse(expiredOutcome(storedUnknown(socketClosed(), 1000), 1000));
    assert.equal(expired.network.cause, undefined);
    assert.equal(expired.network.title, 'network connection lost');
    const fallback = JSON.parse(expiredOutcome('not json', 1000));
    assert.deepEqual(Object.keys(fallback.network), ['kind', 'code', 'httpStatus', 'title', 'details']);
  });

  test('a throttled failure keeps its fields in their order', () => {
    const throttled = failureFromGraphResponse(429, graphError(130429), '7');
    assert.equal(
      JSON.stringify(recordedFailure(throttled)),
      '{"kind":"transient","code":130429,"httpStatus":429,"title":"Graph says","details":"Something went wrong.","throttled":true,"retryAfterMs":7000}',
    );
  });
});
