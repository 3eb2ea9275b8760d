/** The network's verdicts on templates as the domain reads them (src/domain/templates/review-templates.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TemplateReview, TemplatesStore } from '../../src/domain/ports/templates.ts';
import { recordTemplateReview } from '../../src/domain/templates/review-templates.ts';

/** A store that records the reviews it is given. */
function recordingStore() {
  const reviews: { id: string; review: TemplateReview }[] = [];
  const store = {
    async applyReview(id: string, review: TemplateReview) {
      reviews.push({ id, review });
      return null;
    },
  } as Pick<TemplatesStore, 'applyReview'> as TemplatesStore;
  return { store, reviews };
}

const WORDS = { reason: 'The body text ends with a variable.', recommendation: 'Add text after it.' };

const event = (name: string, reason = 'NONE') => ({
  kind: 'template_status' as const,
  templateId: '123',
  event: name,
  reason,
  rejectionInfo: name === 'REJECTED' || name === 'PAUSED' ? WORDS : null,
  at: 5_000,
});

test('a reinstated, unarchived or unlocked template is approved again; other events are their own status', async () => {
  const { store, reviews } = recordingStore();
  const deps = { templates: store, wakeDispatcher() {} };
  for (const name of ['REINSTATED', 'UNARCHIVED', 'UNLOCKED', 'PAUSED', 'APPROVED'])
    await recordTemplateReview(deps, event(name));
  assert.deepEqual(
    reviews.map((r) => r.review.status),
    ['APPROVED', 'APPROVED', 'APPROVED', 'PAUSED', 'APPROVED'],
  );
});

test("only a rejection keeps its reason and the network's words on it", async () => {
  const { store, reviews } = recordingStore();
  const deps = { templates: store, wakeDispatcher() {} };
  await recordTemplateReview(deps, event('REJECTED', 'INVALID_FORMAT'));
  await recordTemplateReview(deps, event('PAUSED', 'LOW_QUALITY'));
  assert.deepEqual(
    reviews.map((r) => [r.review.reason, r.review.info]),
    [
      ['INVALID_FORMAT', WORDS],
      ['NONE', null],
    ],
  );
});

test("an event named like one of Object's own properties is taken as it is", async () => {
  const { store, reviews } = recordingStore();
  const deps = { templates: store, wakeDispatcher() {} };
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
    await recordTemplateReview(deps, event(name));
  assert.deepEqual(
    reviews.map((r) => r.review.status),
    ['constructor', 'toString', '__proto__', 'hasOwnProperty'],
  );
});
