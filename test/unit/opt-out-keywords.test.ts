/** Which texts are opt-out and opt-in keywords (src/domain/opt-outs.ts), and how the lists are configured. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { DEFAULT_OPT_IN_KEYWORDS, DEFAULT_OPT_OUT_KEYWORDS, keywordOf } from '../../src/domain/opt-outs.ts';

test('a keyword is the whole message, whatever its case and the punctuation around it', () => {
  for (const text of ['STOP', 'stop', ' Stop. ', 'STOP!!', '¡Baja!', 'arrêt', '"stopp"', 'Unsubscribe']) {
    assert.ok(keywordOf(text, DEFAULT_OPT_OUT_KEYWORDS), text);
  }
  assert.equal(keywordOf('stop.', DEFAULT_OPT_OUT_KEYWORDS), 'STOP', 'answered as the list spells it');
  for (const text of ['please do not stop', 'stop it', 'STOPPED', 'S T O P', '', '!!!', 'start']) {
    assert.equal(keywordOf(text, DEFAULT_OPT_OUT_KEYWORDS), undefined, text);
  }
  assert.equal(keywordOf('Start', DEFAULT_OPT_IN_KEYWORDS), 'START');
  assert.equal(keywordOf('démarrer', DEFAULT_OPT_IN_KEYWORDS), 'DÉMARRER');
});

test('the lists can be replaced; a malformed list stops the start, naming the variable', () => {
  const base = { SECRET_KEY: 'a'.repeat(64) };
  assert.deepEqual(loadConfig(base).optOutKeywords, { optOut: null, optIn: null });
  const set = loadConfig({ ...base, OPT_OUT_KEYWORDS: 'STOP, Halt ,AUS', OPT_IN_KEYWORDS: 'GO' });
  assert.deepEqual(set.optOutKeywords, { optOut: ['STOP', 'Halt', 'AUS'], optIn: ['GO'] });
  for (const bad of ['STOP,,END', 'STOP NOW', 'ST0P', 'x'.repeat(33)]) {
    assert.throws(
      () => loadConfig({ ...base, OPT_OUT_KEYWORDS: bad }),
      /OPT_OUT_KEYWORDS must be a comma-separated list/,
      bad,
    );
  }
});
