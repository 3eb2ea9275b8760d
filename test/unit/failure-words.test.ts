/** The portal's failures in words (src/portal/failure-words.ts): sentences with the network's code and a hint. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failureInWords } from '../../src/portal/failure-words.ts';

test('a failed status from the network: its details, its code and title, and what to do', () => {
  const stored = JSON.stringify({
    code: 131047,
    title: 'Re-engagement message',
    message: 'Re-engagement message',
    error_data: { details: 'Message failed to send because more than 24 hours have passed.' },
  });
  assert.equal(
    failureInWords(stored),
    'Message failed to send because more than 24 hours have passed. (network error 131047: Re-engagement message) — more than 24 hours passed since the user last wrote: send an approved template instead',
  );
});

test('a refused send: the answer the client got, with the network error it came from', () => {
  const stored = JSON.stringify({
    httpStatus: 422,
    code: 'network_rejected',
    message: 'The network refused the message',
    network: {
      kind: 'permanent',
      code: 132001,
      httpStatus: 404,
      title: 'Template name does not exist',
      details: 'x',
    },
  });
  assert.equal(
    failureInWords(stored),
    'The network refused the message (network error 132001: Template name does not exist) — no approved template of that name and language on this number',
  );
  const gatewayOnly = JSON.stringify({
    httpStatus: 504,
    code: 'network_timeout',
    message: 'No answer in time',
  });
  assert.equal(failureInWords(gatewayOnly), 'No answer in time');
});

test('anything else is shown as it was stored', () => {
  assert.equal(failureInWords('plain words'), 'plain words');
  assert.equal(failureInWords('[1,2]'), '[1,2]');
  assert.equal(failureInWords(JSON.stringify({ code: 999999, title: 'Odd' })), '(network error 999999: Odd)');
});
