/**
 * The rules of a campaign that need no store (src/domain/campaigns/): its settings checked and named
 * field by field, start times read in a time zone (daylight saving included), each recipient's values
 * filled with fallbacks, and live counts added up from the recipients' states.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { campaignSettings } from '../../src/domain/campaigns/campaign-input.ts';
import { countsOf } from '../../src/domain/campaigns/counts.ts';
import { isNumberWideCode } from '../../src/domain/campaigns/network-signals.ts';
import { fillPlaceholders } from '../../src/domain/campaigns/placeholders.ts';
import { GatewayError } from '../../src/domain/errors.ts';
import { instantOf } from '../../src/lib/zoned-time.ts';

const NOW = Date.UTC(2026, 10, 26, 9);
const BASE = {
  name: 'Winter sale',
  from: '+1 415 555 0123',
  template: { name: 'winter_sale', language: 'en_US' },
  audience: { tags: ['vip'] },
};

function refusal(input: object): { field: string | undefined; message: string } {
  try {
    campaignSettings(input, NOW);
  } catch (error) {
    assert.ok(error instanceof GatewayError);
    assert.equal(error.status, 400);
    return { field: error.field, message: error.message };
  }
  assert.fail('expected a refusal');
}

describe('campaign settings', () => {
  test('a good campaign is normalized', () => {
    const s = campaignSettings(
      {
        ...BASE,
        parameters: [{ field: 'name', fallback: 'there' }, { value: '20%' }, { column: 'city' }],
        startAt: '2026-12-01T09:00',
        timeZone: 'Europe/Paris',
      },
      NOW,
    );
    assert.equal(s.from, '14155550123');
    assert.deepEqual(s.parameters, [
      { field: 'name', fallback: 'there' },
      { value: '20%' },
      { column: 'city' },
    ]);
    assert.equal(s.startAt, Date.UTC(2026, 11, 1, 8), '09:00 in Paris in winter is 08:00 UTC');
    assert.equal(s.timeZone, 'Europe/Paris');
  });

  test('each broken rule is a 400 naming its field', () => {
    assert.equal(refusal({ ...BASE, name: '  ' }).field, 'name');
    assert.equal(refusal({ ...BASE, from: '12' }).field, 'from');
    assert.equal(refusal({ ...BASE, template: undefined }).field, 'template');
    assert.equal(refusal({ ...BASE, parameters: [{ field: 'name', value: 'x' }] }).field, 'parameters[0]');
    assert.equal(refusal({ ...BASE, parameters: [{ field: 'email' }] }).field, 'parameters[0].field');
    assert.equal(refusal({ ...BASE, parameters: [{ column: '1bad' }] }).field, 'parameters[0].column');
    assert.equal(refusal({ ...BASE, audience: { tags: ['a'], csv: true } }).field, 'audience');
    assert.equal(refusal({ ...BASE, audience: { tags: [] } }).field, 'audience.tags');
    assert.equal(refusal({ ...BASE, timeZone: 'Mars/Olympus' }).field, 'timeZone');
    assert.equal(refusal({ ...BASE, startAt: 'tomorrow' }).field, 'startAt');
    assert.equal(refusal({ ...BASE, startAt: '2026-02-30T09:00' }).field, 'startAt');
    assert.match(refusal({ ...BASE, startAt: '2020-01-01T00:00:00Z' }).message, /must not be in the past/);
    const skipped = refusal({ ...BASE, startAt: '2099-03-08T02:30', timeZone: 'America/New_York' });
    assert.equal(skipped.field, 'startAt');
    assert.match(skipped.message, /the clocks skip 2099-03-08T02:30 there/);
  });

  test('a change keeps what it leaves out', () => {
    const base = campaignSettings(BASE, NOW);
    const changed = campaignSettings({ name: 'Winter sale, last days' }, NOW, base);
    assert.deepEqual({ ...changed, name: base.name }, base);
    assert.equal(changed.name, 'Winter sale, last days');
  });
});

describe('start times in a time zone', () => {
  test('local times on both sides of a daylight-saving change', () => {
    assert.equal(instantOf('2026-07-01T09:00', 'Europe/Paris'), Date.UTC(2026, 6, 1, 7));
    assert.equal(
      instantOf('2026-03-29T12:00', 'Europe/Paris'),
      Date.UTC(2026, 2, 29, 10),
      'the day clocks go forward',
    );
    assert.equal(instantOf('2026-12-01T09:00', 'America/New_York'), Date.UTC(2026, 11, 1, 14));
    assert.equal(
      instantOf('2026-12-01T09:00:00+05:30', 'UTC'),
      Date.UTC(2026, 11, 1, 3, 30),
      'an offset wins',
    );
    assert.equal(instantOf('2026-13-01T09:00', 'UTC'), null);
  });
});

describe('placeholder values', () => {
  const record = {
    name: 'Amina',
    phone: '+447911123456',
    attributes: { city: 'Nairobi' },
    cells: { code: 'X1' },
  };
  test('from fields, attributes, columns and fixed values, with fallbacks', () => {
    assert.deepEqual(
      fillPlaceholders(
        [{ field: 'name' }, { attribute: 'city' }, { column: 'code' }, { value: '20%' }],
        record,
      ),
      { values: ['Amina', 'Nairobi', 'X1', '20%'] },
    );
    assert.deepEqual(fillPlaceholders([{ attribute: 'zip', fallback: 'n/a' }], record), { values: ['n/a'] });
    assert.deepEqual(fillPlaceholders([{ field: 'name' }, { attribute: 'zip' }], record), { missing: 1 });
    assert.deepEqual(
      fillPlaceholders([{ field: 'name' }], { ...record, name: null, cells: { name: 'From CSV' } }),
      { values: ['From CSV'] },
      'a CSV audience reads a field from the column of its name',
    );
    // Names an object inherits are nobody's value: the fallback, or missing, never a function.
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__']) {
      assert.deepEqual(fillPlaceholders([{ attribute: name, fallback: 'there' }], record), {
        values: ['there'],
      });
      assert.deepEqual(fillPlaceholders([{ column: name }], record), { missing: 0 });
    }
    assert.deepEqual(
      fillPlaceholders([{ attribute: 'constructor' }], { ...record, attributes: { constructor: 'own' } }),
      { values: ['own'] },
    );
    // The network takes a text parameter on one line: a multi-line value is sent as one.
    assert.deepEqual(
      fillPlaceholders([{ column: 'address' }, { value: 'a\tb      c' }], {
        ...record,
        cells: { address: '12 Moi Avenue\r\n  Nairobi\n' },
      }),
      { values: ['12 Moi Avenue Nairobi', 'a b c'] },
    );
  });
});

describe('live counts', () => {
  test('sent, delivered and read are cumulative; skipped says why', () => {
    const counts = countsOf([
      { state: 'QUEUED', reason: null, messageStatus: null, count: 5, replied: 0 },
      { state: 'DONE', reason: null, messageStatus: 'PENDING', count: 1, replied: 0 },
      { state: 'DONE', reason: null, messageStatus: 'SENT', count: 2, replied: 0 },
      { state: 'DONE', reason: null, messageStatus: 'DELIVERED', count: 3, replied: 1 },
      { state: 'DONE', reason: null, messageStatus: 'READ', count: 4, replied: 2 },
      { state: 'DONE', reason: null, messageStatus: 'FAILED', count: 1, replied: 0 },
      { state: 'FAILED', reason: 'refused', messageStatus: null, count: 1, replied: 0 },
      { state: 'SKIPPED', reason: 'opted_out', messageStatus: null, count: 2, replied: 0 },
      { state: 'SKIPPED', reason: 'duplicate', messageStatus: null, count: 1, replied: 0 },
    ]);
    assert.deepEqual(counts, {
      total: 20,
      queued: 6,
      sent: 9,
      delivered: 7,
      read: 4,
      failed: 2,
      replied: 3,
      skipped: { total: 3, opted_out: 2, invalid_number: 0, duplicate: 1, missing_value: 0 },
    });
  });
});

describe('refusals that stop a campaign', () => {
  test('a code every other recipient would meet pauses the campaign; one about the message does not', () => {
    // Limits, the account locked, in maintenance or blocked, payment, registration, token, permissions.
    for (const code of [131064, 131048, 131031, 131057, 368, 131042, 133010, 190, 10, 200, 299])
      assert.equal(isNumberWideCode(code), true, String(code));
    // The user's window closed, an undeliverable user, bad parameters, a paused template, a pair limit.
    for (const code of [131047, 131026, 131051, 132000, 132015, 131056, 100, 0, 300])
      assert.equal(isNumberWideCode(code), false, String(code));
  });
});
