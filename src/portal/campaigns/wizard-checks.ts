/**
 * The wizard's checks, step by step, each through the domain: the campaign input's own rules
 * (campaignSettings), the number's ownership (numberCredentials), the audience file's header
 * (checkAudienceColumns) and, once the placeholders are mapped, the very check a start makes
 * (checkSendable). Later steps check the earlier ones again, so an answer changed in a hidden field is
 * refused at its own step. What a check learns (the templates, the audience's size and first recipients,
 * the settings) is kept for the pages.
 */
import { type CampaignSettings, campaignSettings } from '../../domain/campaigns/campaign-input.ts';
import { checkSendable, draftCampaign } from '../../domain/campaigns/campaign-service.ts';
import { GatewayError } from '../../domain/errors.ts';
import type { Campaign } from '../../domain/ports/campaigns.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import { numberCredentials } from '../../domain/senders.ts';
import { listSendableTemplates } from '../../domain/templates/manage-templates.ts';
import type { TemplateView } from '../../domain/templates/template-view.ts';
import type { PortalDeps } from '../deps.ts';
import { type AudienceSummary, csvAudience, tagAudience } from './wizard-audience.ts';
import {
  campaignInput,
  inWizardWords,
  missingButtonValue,
  missingHeaderValue,
  placeOf,
  STEPS,
  type Step,
  type TemplateNeeds,
  templateOfKey,
  type WizardForm,
} from './wizard-form.ts';

export interface WizardContext {
  /** The numbers the account may send from: the sandbox first, as on the templates page. */
  phones: string[];
  /** The APPROVED templates of the chosen number. */
  templates: TemplateView[];
  template?: TemplateView;
  needs: TemplateNeeds;
  audience?: AudienceSummary;
  /** The account's tags with how many contacts have each, for the audience step to offer. */
  tags?: { tag: string; contacts: number }[];
  /** The campaign's settings as the domain read them, once the placeholders passed. */
  settings?: CampaignSettings;
}

export interface Problem {
  step: Step;
  status: number;
  /** Messages by input; `page` when the refusal names no input of the wizard. */
  errors: Record<string, string>;
}

const NO_NEEDS: TemplateNeeds = { placeholders: 0, header: 'none', linkButtons: [] };
const STAND_IN = { template: { name: 'x', language: 'x' }, audience: { csv: true as const } };

/** How many body placeholders the template has, what its header needs, and its link buttons with {{1}}. */
export function needsOf(template: TemplateView): TemplateNeeds {
  const parts = template.components as {
    type?: string;
    format?: string;
    text?: string;
    buttons?: { type?: string; text?: string; url?: string }[];
  }[];
  const body = parts.find((c) => c.type === 'BODY')?.text ?? '';
  const numbers = [...body.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1]));
  const header = parts.find((c) => c.type === 'HEADER');
  const format = header?.format ?? '';
  const kind =
    format === 'TEXT'
      ? /\{\{1\}\}/.test(header?.text ?? '')
        ? 'TEXT'
        : 'none'
      : format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT'
        ? format
        : 'none';
  const buttons = parts.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
  const linkButtons = buttons.flatMap((b, index) =>
    b.type === 'URL' && b.url?.endsWith('{{1}}') ? [{ index, text: b.text ?? '', url: b.url }] : [],
  );
  return { placeholders: Math.min(Math.max(0, ...numbers), 20), header: kind, linkButtons };
}

/** A campaign with these settings that is never stored: what checkSendable judges. */
const unsaved = (accountId: string, settings: CampaignSettings, now: number): Campaign =>
  draftCampaign(accountId, settings, now, 'cmp_wizard');

type Check = (deps: PortalDeps, accountId: string, form: WizardForm, ctx: WizardContext) => Promise<void>;

const CHECKS: Record<Step, Check> = {
  async number(deps, accountId, form, ctx) {
    const now = Date.now();
    const settings = campaignSettings({ name: form.name, from: form.from, ...STAND_IN }, now);
    await numberCredentials(deps.campaigns.senders, accountId, settings.from, 'from');
    ctx.templates = await listSendableTemplates(deps.templates, accountId, settings.from);
  },
  async template(_deps, _accountId, form, ctx) {
    const key = templateOfKey(form.template);
    ctx.template = ctx.templates.find((t) => t.name === key?.name && t.language === key.language);
    if (!ctx.template) {
      const message = ctx.templates.length
        ? 'Choose one of the approved templates of this number.'
        : 'This number has no approved template yet: create one on the Templates page first.';
      throw new GatewayError('invalid_request', message, { field: 'template' });
    }
    ctx.needs = needsOf(ctx.template);
  },
  async audience(deps, accountId, form, ctx) {
    const { audience } = campaignInput(form, ctx.needs);
    const settings = campaignSettings(
      { name: form.name, from: form.from, ...STAND_IN, audience },
      Date.now(),
    );
    if ('tags' in settings.audience) {
      ctx.audience = await tagAudience(deps.campaigns, accountId, settings.audience.tags);
    } else if (form.csv.trim() === '') {
      throw new GatewayError('invalid_request', 'Choose a CSV file or paste its text.', { field: 'csv' });
    } else ctx.audience = await csvAudience(form.csv);
    if (settings.from === deps.config.sandboxNumber) await markNotJoined(deps, accountId, ctx.audience);
  },
  async mapping(deps, accountId, form, ctx) {
    const now = Date.now();
    const settings = campaignSettings(
      { ...campaignInput(form, ctx.needs), startAt: null, timeZone: null },
      now,
    );
    const noHeader = missingHeaderValue(ctx.needs, form.header);
    if (noHeader) throw noHeader;
    const noButton = missingButtonValue(ctx.needs, (i) => form.buttons[i] ?? '');
    if (noButton) throw noButton;
    await checkSendable(deps.campaigns, accountId, unsaved(accountId, settings, now), true);
    checkColumnsNamed(settings, ctx.audience?.columns ?? []);
    ctx.settings = settings;
  },
  async schedule(_deps, _accountId, form, ctx) {
    ctx.settings = campaignSettings(campaignInput(form, ctx.needs), Date.now());
  },
  async review() {},
};

/**
 * A CSV audience's placeholders read columns of its file (a field or an attribute by a column of its name,
 * a column by its own): one the file does not have would leave every recipient without a value, so it is
 * refused at the placeholder, naming the columns there are.
 */
function checkColumnsNamed(settings: CampaignSettings, columns: string[]): void {
  if (!('csv' in settings.audience) || columns.length === 0) return;
  const has = new Set(columns);
  for (const [i, p] of settings.parameters.entries()) {
    const column = 'column' in p ? p.column : 'attribute' in p ? p.attribute : undefined;
    if (column === undefined || has.has(column) || 'fallback' in p) continue;
    throw new GatewayError(
      'invalid_request',
      `The file has no column "${column}": its columns are ${columns.join(', ')}. Choose one of them, or give a fallback.`,
      { field: `parameters[${i}].${'column' in p ? 'column' : 'attribute'}` },
    );
  }
}

/** The first recipients who have not joined the account's sandbox, for a campaign from the sandbox number. */
async function markNotJoined(deps: PortalDeps, accountId: string, audience: AudienceSummary): Promise<void> {
  const sandbox = deps.config.sandboxNumber;
  for (const recipient of audience.sample) {
    const phone = recipient.record.phone?.replace(/^\+/, '');
    if (!phone || recipient.leftOut) continue;
    const joined = await deps.repos.conversations.sandboxAccountOf(sandbox, phone);
    if (joined !== accountId) recipient.notJoined = true;
  }
}

async function phonesOf(deps: PortalDeps, accountId: string): Promise<string[]> {
  const numbers = await deps.repos.numbers.listNumbersOfAccount(accountId);
  return [deps.config.sandboxNumber, ...numbers.map((n) => n.phone)];
}

/**
 * Runs the checks of every step up to `last` (none when undefined). A refusal becomes the problem of the
 * step its field belongs to (a start time in the past: the schedule step), with the domain's message.
 */
export async function checkThrough(
  deps: PortalDeps,
  session: SessionContext,
  form: WizardForm,
  last: Step | undefined,
): Promise<{ ctx: WizardContext; problem?: Problem }> {
  const ctx: WizardContext = {
    phones: await phonesOf(deps, session.accountId),
    templates: [],
    needs: NO_NEEDS,
  };
  const upTo = last === undefined ? -1 : STEPS.indexOf(last);
  for (const step of STEPS.slice(0, upTo + 1)) {
    try {
      await CHECKS[step](deps, session.accountId, form, ctx);
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status >= 500) throw error;
      const place = placeOf(error.field);
      // A field of a later step refused early (never expected): shown at the step being checked.
      const at = STEPS.indexOf(place.step) > STEPS.indexOf(step) ? { step } : place;
      return {
        ctx,
        problem: {
          step: at.step,
          status: error.status,
          errors: { [at.input ?? 'page']: inWizardWords(error.message) },
        },
      };
    }
  }
  return { ctx };
}

/** The settings of the answers so far when the domain accepts them, for a preview; else undefined. */
export function settingsIfValid(form: WizardForm, ctx: WizardContext): CampaignSettings | undefined {
  try {
    return campaignSettings({ ...campaignInput(form, ctx.needs), startAt: null, timeZone: null }, Date.now());
  } catch (error) {
    if (error instanceof GatewayError) return undefined;
    throw error;
  }
}
