/** The template store on SQLite and PostgreSQL: scoping, uniqueness, reviews with their events, media. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import type { Template } from '../../src/domain/ports/templates.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories, type Repositories } from '../../src/store/repositories.ts';
import { retentionRepo } from '../../src/store/retention-repo.ts';
import { templatesRepo } from '../../src/store/templates-repo.ts';
import { openForSuite, storeTargets } from '../support/store-targets.ts';

function templateRow(accountId: string, id: string, name: string, language = 'en'): Template {
  return {
    id,
    accountId: accountId,
    phone: '14155550123',
    name,
    networkName: name,
    language,
    category: 'UTILITY',
    status: 'PENDING',
    rejectedReason: 'NONE',
    rejectionInfo: null,
    qualityScore: JSON.stringify({ score: 'UNKNOWN', date: '1' }),
    components: JSON.stringify([{ type: 'BODY', text: 'Hello there' }]),
    editTimes: '[]',
    createdAt: Number(id),
    updatedAt: Number(id),
  };
}

for (const target of storeTargets) {
  describe(`template store on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: Repositories;
    let templates: ReturnType<typeof templatesRepo>;
    let dataDir: string;
    let a: string;
    let b: string;

    openForSuite(target, skip, async (opened) => {
      store = opened;
      repos = createRepositories(store);
      dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-template-media-'));
      templates = templatesRepo(store.db, dataDir, store.dialect);
      a = (await createAccount(repos.accounts, 'A')).id;
      b = (await createAccount(repos.accounts, 'B')).id;
    });
    after(() => {
      if (skip) return;
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('reads are scoped by account, and one name per language per number', { skip }, async () => {
      await templates.insert(templateRow(a, '100', 'welcome', 'en'));
      await templates.insert(templateRow(a, '101', 'welcome', 'es'));
      await templates.insert(templateRow(b, '102', 'welcome', 'en'));
      await assert.rejects(templates.insert(templateRow(a, '103', 'welcome', 'en')));
      assert.equal((await templates.findOfAccount(a, '100'))?.name, 'welcome');
      assert.equal(await templates.findOfAccount(b, '100'), undefined);
      assert.deepEqual(
        (await templates.list(a, '14155550123', { name: 'welcome' })).map((r) => r.id),
        ['101', '100'],
      );
      assert.deepEqual(
        (await templates.list(a, '14155550123', { language: 'es' })).map((r) => r.id),
        ['101'],
      );
      assert.equal(await templates.findByName(b, '14155550123', 'welcome', 'es'), undefined);
      await templates.remove(b, ['100']);
      assert.ok(await templates.findOfAccount(a, '100'), 'another account cannot delete it');
    });

    test('a review is applied once, with its template.status event', { skip }, async () => {
      await repos.webhooks.createEndpoint(
        { account_id: a, url: 'https://hooks.example.com/x', events: '["template.status"]', secret_enc: 'x' },
        Date.now(),
      );
      await templates.insert(templateRow(a, '200', 'reviewed'));
      const first = await templates.applyReview('200', {
        status: 'APPROVED',
        reason: 'NONE',
        info: null,
        at: 5_000,
      });
      assert.ok(first?.eventId);
      assert.equal(
        await templates.applyReview('200', { status: 'APPROVED', reason: 'NONE', info: null, at: 6_000 }),
        null,
      );
      assert.equal(
        await templates.applyReview('999', { status: 'APPROVED', reason: 'NONE', info: null, at: 6_000 }),
        null,
      );
      const row = await templates.findOfAccount(a, '200');
      assert.equal(row?.status, 'APPROVED');
      assert.deepEqual(JSON.parse(row?.qualityScore ?? '{}'), { score: 'UNKNOWN', date: '5' });
      const events = await store.db.selectFrom('events').selectAll().where('account_id', '=', a).execute();
      const payloads = events.map((e) => JSON.parse(e.payload)).filter((p) => p.type === 'template.status');
      assert.equal(payloads.length, 1);
      assert.deepEqual(payloads[0].data, {
        id: '200',
        name: 'reviewed',
        language: 'en',
        status: 'APPROVED',
        reason: 'NONE',
      });

      const edited = await templates.recordEdit(a, '200', {
        category: 'UTILITY',
        components: '[]',
        editTimes: [7_000],
        at: 7_000,
      });
      assert.ok(edited);
      const afterEdit = await templates.findOfAccount(a, '200');
      assert.equal(afterEdit?.status, 'PENDING');
      assert.equal(afterEdit?.editTimes, '[7000]');
      assert.equal(
        await templates.recordEdit(b, '200', { category: 'X', components: '[]', editTimes: [], at: 8_000 }),
        null,
      );
    });

    test("the network's new category is applied once, with its template.category event", {
      skip,
    }, async () => {
      await repos.webhooks.createEndpoint(
        {
          account_id: a,
          url: 'https://hooks.example.com/c',
          events: '["template.category"]',
          secret_enc: 'x',
        },
        Date.now(),
      );
      await templates.insert(templateRow(a, '250', 'recategorized'));
      const changed = await templates.applyCategory('250', { category: 'MARKETING', at: 9_000 });
      assert.ok(changed?.eventId);
      assert.equal(
        await templates.applyCategory('250', { category: 'MARKETING', at: 9_500 }),
        null,
        'repeat',
      );
      assert.equal(
        await templates.applyCategory('998', { category: 'MARKETING', at: 9_500 }),
        null,
        'not here',
      );
      const row = await templates.findOfAccount(a, '250');
      assert.equal(row?.category, 'MARKETING');
      assert.equal(row?.updatedAt, 9_000);
      const events = await store.db.selectFrom('events').selectAll().where('account_id', '=', a).execute();
      const payloads = events.map((e) => JSON.parse(e.payload)).filter((p) => p.type === 'template.category');
      assert.deepEqual(
        payloads.map((p) => p.data),
        [
          {
            id: '250',
            name: 'recategorized',
            language: 'en',
            category: 'MARKETING',
            previousCategory: 'UTILITY',
          },
        ],
      );
    });

    test("the network's quality rating is applied once, in the listing's shape", { skip }, async () => {
      await templates.insert(templateRow(a, '260', 'rated'));
      await templates.applyReview('260', { status: 'APPROVED', reason: 'NONE', info: null, at: 12_000_000 });
      assert.equal(await templates.applyQuality('260', { score: 'RED', at: 12_345_000 }), true);
      assert.equal(await templates.applyQuality('260', { score: 'RED', at: 13_000_000 }), false, 'repeat');
      assert.equal(await templates.applyQuality('997', { score: 'RED', at: 13_000_000 }), false, 'not here');
      const row = await templates.findOfAccount(a, '260');
      assert.deepEqual(JSON.parse(row?.qualityScore ?? '{}'), { score: 'RED', date: '12345' });
      // A pause for it keeps the rating; only a verdict on what was under review starts it afresh.
      await templates.applyReview('260', { status: 'PAUSED', reason: 'NONE', info: null, at: 14_000_000 });
      const paused = await templates.findOfAccount(a, '260');
      assert.deepEqual(JSON.parse(paused?.qualityScore ?? '{}'), { score: 'RED', date: '12345' });
    });

    test("a rejection keeps the network's own words, also when it overtakes its create; approval clears them", {
      skip,
    }, async () => {
      const info = { reason: 'The body text ends with a variable.', recommendation: 'Add text after it.' };
      const rejected = { status: 'REJECTED', reason: 'INVALID_FORMAT', info, at: 5_000 };
      await templates.insert(templateRow(a, '320', 'worded'));
      await templates.applyReview('320', rejected);
      assert.deepEqual((await templates.findOfAccount(a, '320'))?.rejectionInfo, info);
      await templates.applyReview('320', { status: 'APPROVED', reason: 'NONE', info: null, at: 6_000 });
      assert.equal((await templates.findOfAccount(a, '320'))?.rejectionInfo, null);

      assert.equal(await templates.applyReview('330', rejected), null);
      const stored = await templates.insert(templateRow(a, '330', 'worded_early'));
      assert.deepEqual(stored.template.rejectionInfo, info);
      assert.deepEqual((await templates.findOfAccount(a, '330'))?.rejectionInfo, info);
    });

    test('a verdict that overtakes its create is applied when the create is recorded', { skip }, async () => {
      assert.equal(
        await templates.applyReview('300', { status: 'APPROVED', reason: 'NONE', info: null, at: 5_000 }),
        null,
      );
      // A verdict older than the one kept does not replace it.
      assert.equal(
        await templates.applyReview('300', { status: 'PENDING', reason: 'NONE', info: null, at: 4_000 }),
        null,
      );
      const stored = await templates.insert(templateRow(a, '300', 'overtaken'));
      assert.equal(stored.template.status, 'APPROVED');
      assert.ok(stored.eventId, 'its template.status event is published');
      assert.equal((await templates.findOfAccount(a, '300'))?.status, 'APPROVED');
      const again = await templates.insert(templateRow(a, '301', 'not_reviewed'));
      assert.deepEqual([again.template.status, again.eventId], ['PENDING', null]);
    });

    test('a verdict and its create at the same moment: the verdict is never lost', { skip }, async () => {
      const ids = Array.from({ length: 40 }, (_, i) => String(400 + i));
      await Promise.all(
        ids.flatMap((id, i) => {
          const verdict = () =>
            templates.applyReview(id, { status: 'APPROVED', reason: 'NONE', info: null, at: 5_000 });
          const create = () => templates.insert(templateRow(a, id, `race_${i}`));
          return i % 2 ? [verdict(), create()] : [create(), verdict()];
        }),
      );
      for (const id of ids) assert.equal((await templates.findOfAccount(a, id))?.status, 'APPROVED', id);
      const kept = await store.db
        .selectFrom('early_template_reviews')
        .select('template_id')
        .where('template_id', 'in', ids)
        .execute();
      assert.deepEqual(kept, [], 'every kept verdict was taken by its create');
    });

    test('verdicts on templates never created here are cleared by retention', { skip }, async () => {
      await templates.applyReview('elsewhere-1', {
        status: 'APPROVED',
        reason: 'NONE',
        info: null,
        at: 1_000,
      });
      await templates.applyReview('elsewhere-2', {
        status: 'APPROVED',
        reason: 'NONE',
        info: null,
        at: 9_000,
      });
      await retentionRepo(store.db, dataDir).removeBefore(5_000, 100);
      const kept = await store.db
        .selectFrom('early_template_reviews')
        .select('template_id')
        .where('template_id', 'like', 'elsewhere-%')
        .execute();
      assert.deepEqual(
        kept.map((r) => r.template_id),
        ['elsewhere-2'],
      );
    });

    test('header media is stored under DATA_DIR and found by its handle, per account', { skip }, async () => {
      const store = async (accountId: string, content: string) => {
        const place = templates.newMediaPlace();
        mkdirSync(path.dirname(place.absolute), { recursive: true });
        writeFileSync(place.absolute, content);
        const written = { mimeType: 'image/png', size: content.length, sha256: 'sha' };
        return { place, row: await templates.recordMedia(accountId, place, written) };
      };
      const { row: media, place: first } = await store(a, 'png bytes');
      assert.match(media.handle, /^4::/);
      assert.equal(readFileSync(first.absolute, 'utf8'), 'png bytes');
      assert.equal((await templates.findMedia(a, media.handle))?.mimeType, 'image/png');
      assert.equal(await templates.findMedia(b, media.handle), undefined);

      // The quota counts each account's own files; removing one gives its bytes back.
      const { row: second, place } = await store(a, '12345');
      await store(b, 'other account');
      assert.equal(await templates.mediaBytesOfAccount(a), 'png bytes'.length + 5);
      await templates.removeMedia(b, second.handle);
      assert.equal(existsSync(place.absolute), true, 'another account cannot remove it');
      await templates.removeMedia(a, second.handle);
      assert.equal(existsSync(place.absolute), false);
      assert.equal(await templates.findMedia(a, second.handle), undefined);
      assert.equal(await templates.mediaBytesOfAccount(a), 'png bytes'.length);
      assert.equal(await templates.mediaBytesOfAccount('acc_nobody'), 0);
    });

    test('a header file is written as it arrives and recorded; past its limit none is kept', {
      skip,
    }, async () => {
      async function* chunks(...parts: string[]) {
        for (const part of parts) yield Buffer.from(part);
      }
      const kept = await templates.writeMedia(a, chunks('abc', 'def'), 6, 'image/jpeg');
      assert.ok(kept.ok);
      assert.equal(kept.media.size, 6);
      assert.equal(kept.media.mimeType, 'image/jpeg');
      assert.deepEqual(await templates.findMedia(a, kept.media.handle), kept.media);
      const before = await templates.mediaBytesOfAccount(a);
      const refused = await templates.writeMedia(a, chunks('abc', 'defg', 'hij'), 6, 'image/jpeg');
      assert.deepEqual(refused, { ok: false, size: 10 }, 'drained to its end, every byte counted');
      assert.equal(await templates.mediaBytesOfAccount(a), before);
      await templates.removeMedia(a, kept.media.handle);
    });
  });
}
