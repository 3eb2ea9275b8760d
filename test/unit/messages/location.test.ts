/** Operation 3, location pin (docs/contract.md §3, docs/cloud-api.md §1.3 location). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sendLocation } from '../../../src/domain/messages/send-location.ts';
import { accepted, refused, x } from './check.ts';

const at = (latitude: unknown, longitude: unknown) => ({ latitude, longitude });

describe('send location', () => {
  test('latitude in [-90, 90], longitude in [-180, 180], at the edges', () => {
    assert.deepEqual(accepted(sendLocation, at(90, -180)), { latitude: 90, longitude: -180 });
    assert.deepEqual(accepted(sendLocation, at(-90, 180)), { latitude: -90, longitude: 180 });
    assert.equal(refused(sendLocation, at(90.0001, 0)), '`latitude` must be between -90 and 90');
    assert.equal(refused(sendLocation, at(-90.0001, 0)), '`latitude` must be between -90 and 90');
    assert.equal(refused(sendLocation, at(0, 180.0001)), '`longitude` must be between -180 and 180');
    assert.equal(refused(sendLocation, at(0, -180.0001)), '`longitude` must be between -180 and 180');
    assert.equal(refused(sendLocation, at('90.0001', '0')), '`latitude` must be between -90 and 90');
  });

  test('coordinates as numeric strings become numbers', () => {
    assert.deepEqual(accepted(sendLocation, at('-1.2921', '36.8219')), {
      latitude: -1.2921,
      longitude: 36.8219,
    });
    assert.deepEqual(accepted(sendLocation, at(' +1.5 ', '.5')), { latitude: 1.5, longitude: 0.5 });
    assert.deepEqual(accepted(sendLocation, at('1e-7', '-180')), { latitude: 1e-7, longitude: -180 });
  });

  test('anything else is refused as not a number, naming the field', () => {
    const rule = (field: string) => `\`${field}\` must be a number or a numeric string`;
    for (const bad of [
      '',
      ' ',
      'abc',
      '1e999',
      '-1e999',
      'Infinity',
      'NaN',
      '0x10',
      '1,5',
      '1.2.3',
      true,
      null,
      [1],
      {},
    ]) {
      assert.equal(refused(sendLocation, at(bad, 0)), rule('latitude'), JSON.stringify(bad));
      assert.equal(refused(sendLocation, at(0, bad)), rule('longitude'), JSON.stringify(bad));
    }
    assert.equal(refused(sendLocation, at(x(65, '1'), 0)), rule('latitude'));
    // JSON's 1e999 parses to Infinity; the schema lets numbers through, the rule refuses it.
    assert.equal(refused(sendLocation, at(JSON.parse('1e999'), 0)), rule('latitude'));
  });

  test('longitude may be spelled longtitude; both must agree', () => {
    assert.deepEqual(accepted(sendLocation, { latitude: 1, longtitude: 2 }), { latitude: 1, longitude: 2 });
    assert.deepEqual(accepted(sendLocation, { latitude: 1, longitude: 2, longtitude: '2.0' }), {
      latitude: 1,
      longitude: 2,
    });
    assert.equal(
      refused(sendLocation, { latitude: 1, longitude: 2, longtitude: 3 }),
      '`longitude` and `longtitude` are two spellings of one field and disagree; send one',
    );
    assert.equal(refused(sendLocation, { latitude: 1 }), '`longitude` is required');
    assert.equal(
      refused(sendLocation, { latitude: 1, longtitude: 181 }),
      '`longtitude` must be between -180 and 180',
    );
    assert.equal(refused(sendLocation, { longitude: 1 }), '`latitude` is required');
  });

  test('name and address: optional strings of at most 1000 characters; empty ones are left out', () => {
    assert.deepEqual(accepted(sendLocation, { ...at(1, 2), name: x(1000), address: x(1000) }), {
      latitude: 1,
      longitude: 2,
      name: x(1000),
      address: x(1000),
    });
    assert.equal(
      refused(sendLocation, { ...at(1, 2), name: x(1001) }),
      '`name` must be at most 1000 characters',
    );
    assert.equal(
      refused(sendLocation, { ...at(1, 2), address: x(1001) }),
      '`address` must be at most 1000 characters',
    );
    assert.equal(refused(sendLocation, { ...at(1, 2), name: 5 }), '`name` must be a string');
    assert.deepEqual(accepted(sendLocation, { ...at(1, 2), name: '', address: '' }), {
      latitude: 1,
      longitude: 2,
    });
  });

  test('toCloud sends numbers', () => {
    const content = accepted(sendLocation, {
      latitude: '37.4847',
      longtitude: '-122.1473',
      name: 'HQ',
      address: '1 Hacker Way',
    });
    assert.deepEqual(sendLocation.toCloud(content, {}), {
      type: 'location',
      location: { latitude: 37.4847, longitude: -122.1473, name: 'HQ', address: '1 Hacker Way' },
    });
  });
});
