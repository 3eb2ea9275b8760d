/**
 * /app/campaigns/new: the campaign wizard. One form per step (number, template, audience, placeholders,
 * schedule, review), each posted to this route with the answers so far: the steps up to the one posted
 * are checked through the domain (src/portal/campaigns/wizard-checks.ts), and the page shows either the
 * next step or the step a refusal belongs to, with the message at its input. The last step makes the
 * campaign with createCampaign, gives it its CSV rows with uploadAudience, and starts it with
 * startCampaign: the functions behind `POST /api/v1/campaigns`, `/audience` and `/start`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { startCampaign, uploadAudience } from '../../domain/campaigns/campaign-control.ts';
import { createCampaign } from '../../domain/campaigns/campaign-service.ts';
import { GatewayError } from '../../domain/errors.ts';
import { reviewStep } from '../campaigns/campaign-review.ts';
import { csvRows } from '../campaigns/wizard-audience.ts';
import { checkThrough } from '../campaigns/wizard-checks.ts';
import {
  CSV_MAX_CHARS,
  campaignInput,
  emptyForm,
  inWizardWords,
  placeOf,
  readForm,
  type Step,
  stepAfter,
  stepBefore,
} from '../campaigns/wizard-form.ts';
import {
  audienceStep,
  mappingStep,
  numberStep,
  type StepView,
  scheduleStep,
  templateStep,
} from '../campaigns/wizard-steps.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { field } from '../forms.ts';
import { page } from '../layout.ts';
import { showCampaign } from './campaign-detail.ts';

/** The CSV text travels URL-encoded (up to three bytes a character) with the other answers. */
const BODY_LIMIT = 3 * CSV_MAX_CHARS + 256 * 1024;

/** The most tags the audience step lists, the most used first. */
const TAGS_LISTED = 30;

async function render(deps: PortalDeps, reply: FastifyReply, v: StepView, step: Step, status: number) {
  if (step === 'audience')
    v.ctx.tags = await deps.contacts.contacts.tagsInUse(v.session.accountId, TAGS_LISTED);
  const bodies: Record<Step, () => ReturnType<typeof numberStep>> = {
    number: () => numberStep(v, deps.config.sandboxNumber),
    template: () => templateStep(v),
    audience: () => audienceStep(v),
    mapping: () => mappingStep(v),
    schedule: () => scheduleStep(v),
    review: () => reviewStep(v),
  };
  const errors = Object.keys(v.errors);
  const error = errors.length
    ? (v.errors.page ?? 'This step has a problem; see the message next to the field.')
    : undefined;
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      page({ title: 'New campaign', session: v.session, section: 'campaigns', error, body: bodies[step]() }),
    );
}

/** Makes the campaign; with `start`, starts it too. A refusal before it exists is shown at its step. */
async function finish(deps: PortalDeps, reply: FastifyReply, v: StepView, start: boolean) {
  const accountId = v.session.accountId;
  // Started with nobody in it, a campaign would be COMPLETED at once having sent nothing: surely a mistake
  // (a tag no contact has, a file of left-out rows). Saved as a draft, its contacts may still come.
  if (start && v.ctx.audience?.count === 0) {
    const page =
      'The audience is empty: nobody would be sent to. Go back to the audience and choose other tags or another file, or save the campaign as a draft.';
    return render(deps, reply, { ...v, errors: { page } }, 'review', 400);
  }
  let id: string;
  try {
    ({ id } = await createCampaign(deps.campaigns, accountId, campaignInput(v.form, v.ctx.needs)));
  } catch (error) {
    if (!(error instanceof GatewayError) || error.status >= 500) throw error;
    const place = placeOf(error.field);
    return render(
      deps,
      reply,
      { ...v, errors: { [place.input ?? 'page']: inWizardWords(error.message) } },
      place.step,
      error.status,
    );
  }
  try {
    if (v.form.audience === 'csv') await uploadAudience(deps.campaigns, accountId, id, csvRows(v.form.csv));
    if (!start) return reply.redirect(`/app/campaigns/${id}?notice=campaign-saved`, 303);
    const started = await startCampaign(deps.campaigns, accountId, id);
    const notice = started.status === 'SCHEDULED' ? 'campaign-scheduled' : 'campaign-started';
    return reply.redirect(`/app/campaigns/${id}?notice=${notice}`, 303);
  } catch (error) {
    if (!(error instanceof GatewayError) || error.status >= 500) throw error;
    // It exists now, as a DRAFT: its page says what stopped it and can start it later.
    return showCampaign(deps, reply, v.session, id, {
      status: error.status,
      error: `The campaign was saved as a DRAFT but not started: ${error.message}`,
    });
  }
}

export function registerCampaignWizard(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/campaigns/new', async (request, reply) => {
    const session = sessionOf(request);
    const form = emptyForm();
    const { ctx } = await checkThrough(deps, session, form, undefined);
    return render(deps, reply, { session, form, ctx, errors: {} }, 'number', 200);
  });

  portal.post('/campaigns/new', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const session = sessionOf(request);
    const form = readForm(request.body);
    const go = field(request.body, 'go', 20);
    const step = form.step;
    const target = go === 'back' ? (stepBefore(step) ?? step) : go === 'next' ? stepAfter(step) : step;
    // Going back checks only what the earlier step's page needs; anything else checks this step too.
    const last = go === 'back' ? stepBefore(target) : step === 'review' ? 'schedule' : step;
    const { ctx, problem } = await checkThrough(deps, session, form, last);
    if (problem) {
      return render(
        deps,
        reply,
        { session, form, ctx, errors: problem.errors },
        problem.step,
        problem.status,
      );
    }
    const view = { session, form, ctx, errors: {} };
    if (step === 'review' && (go === 'start' || go === 'draft'))
      return finish(deps, reply, view, go === 'start');
    return render(deps, reply, view, target, 200);
  });
}
