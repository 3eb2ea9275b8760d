/**
 * The simulated template review (docs/cloud-api.md §4.4): every submission (create or edit) is judged
 * `reviewDelayMs` later, APPROVED or REJECTED with INVALID_FORMAT (review-rules.ts; an authentication
 * template, whose texts WhatsApp writes, is approved when valid), and the outcome is
 * posted as a signed `message_template_status_update` webhook. Meta posts nothing when a template is
 * submitted, so neither does the simulator. A review of a version that was since edited or deleted is
 * dropped.
 */
import type { Scheduler } from '../scheduler.ts';
import type { WebhookPoster } from '../webhook-poster.ts';
import type { TemplateCatalog } from './catalog.ts';
import type { SimTemplate } from './model.ts';
import { formatProblem } from './review-rules.ts';
import { templateStatusEnvelope } from './webhook.ts';

export interface ReviewOptions {
  catalog: TemplateCatalog;
  scheduler: Scheduler;
  poster: WebhookPoster;
  reviewDelayMs: number;
  now: () => number;
}

export class TemplateReview {
  readonly #options: ReviewOptions;

  constructor(options: ReviewOptions) {
    this.#options = options;
  }

  /** Queues the review of the template's current submission. */
  submit(template: SimTemplate): void {
    const { id, submission } = template;
    this.#options.scheduler.after(this.#options.reviewDelayMs, () => this.#decide(id, submission));
  }

  /**
   * Decides the template's pending review now, by the same rules, instead of after the delay (the
   * simulator's control route: tests and demos that must not wait on a clock). False when not PENDING.
   */
  decideNow(template: SimTemplate): boolean {
    if (template.status !== 'PENDING') return false;
    this.#decide(template.id, template.submission);
    return true;
  }

  #decide(id: string, submission: number): void {
    const template = this.#options.catalog.get(id);
    if (!template || template.submission !== submission || template.status !== 'PENDING') return;
    // An authentication template's texts are WhatsApp's own: nothing of the business's to judge.
    const problem = template.category === 'AUTHENTICATION' ? undefined : formatProblem(template.content);
    if (problem) {
      template.status = 'REJECTED';
      template.rejection = {
        reason: 'INVALID_FORMAT',
        details: problem.reason,
        recommendation: problem.recommendation,
      };
    } else {
      template.status = 'APPROVED';
      delete template.rejection;
    }
    this.#options.catalog.save(template);
    // One queue per template: an edit's outcome never overtakes the previous one.
    this.#options.poster.enqueue(`template:${id}`, templateStatusEnvelope(template, this.#options.now()));
  }
}
