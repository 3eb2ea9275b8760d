/**
 * Time zones by their current IANA names (src/lib/zoned-time.ts, src/domain/time-zones.ts): the runtime's
 * Intl data still calls some renamed zones by their old names, which people no longer look for.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseTimeZone, TIME_ZONES } from '../../src/domain/time-zones.ts';
import { skippedByClocks, timeZoneName } from '../../src/lib/zoned-time.ts';

test('renamed zones are offered, read and kept by their current names; the old ones are still read', async () => {
  for (const [old, current] of [
    ['Asia/Calcutta', 'Asia/Kolkata'],
    ['Europe/Kiev', 'Europe/Kyiv'],
    ['Asia/Saigon', 'Asia/Ho_Chi_Minh'],
  ] as const) {
    assert.ok(TIME_ZONES.includes(current), current);
    assert.ok(!TIME_ZONES.includes(old), old);
    assert.equal(timeZoneName(old), current);
    assert.equal(timeZoneName(current), current);
  }
  assert.equal(TIME_ZONES[0], 'UTC');
  assert.equal(timeZoneName('Mars/Olympus_Mons'), null);
  const kept: (string | null)[] = [];
  const portal = { setTimeZone: async (_user: string, zone: string | null) => void kept.push(zone) };
  assert.equal(await chooseTimeZone(portal, 'usr_1', 'Asia/Calcutta'), 'Asia/Kolkata');
  assert.equal(await chooseTimeZone(portal, 'usr_1', ' Europe/Kyiv '), 'Europe/Kyiv');
  assert.equal(await chooseTimeZone(portal, 'usr_1', ''), null);
  assert.deepEqual(kept, ['Asia/Kolkata', 'Europe/Kyiv', null]);
  await assert.rejects(
    chooseTimeZone(portal, 'usr_1', 'Mars/Olympus_Mons'),
    /`timeZone` must be a time zone/,
  );
});

test('a local time the clocks skip is told apart; every other local time and any instant happen', () => {
  assert.equal(skippedByClocks('2027-03-14T02:30', 'America/New_York'), true);
  assert.equal(skippedByClocks('2027-03-14T01:59', 'America/New_York'), false);
  assert.equal(skippedByClocks('2027-03-14T03:00', 'America/New_York'), false);
  // The hour that happens twice (clocks going back) happens.
  assert.equal(skippedByClocks('2027-11-07T01:30', 'America/New_York'), false);
  assert.equal(skippedByClocks('2027-03-14T02:30:00Z', 'America/New_York'), false);
  assert.equal(skippedByClocks('2027-03-28T02:30', 'Europe/Paris'), true);
  assert.equal(skippedByClocks('2027-03-28T02:30', 'UTC'), false);
});
