/**
 * Before a template send: the APPROVED template of the sending number with that name and language, and
 * parameters that fit it exactly (docs/contract.md §3): a header parameter of the header's kind when the header
 * has a variable or media, one body parameter per body variable, one URL suffix per URL button with a
 * variable, a carousel's cards (resolve-carousel-send.ts), and nothing else. An authentication template
 * takes its code as the one body value and goes to phone numbers only. Each mismatch is a 400 naming the
 * component and what it expects.
 */

import { isUserId } from '../../lib/user-id.ts';
import { GatewayError } from '../errors.ts';
import type { TemplateContent } from '../messages/send-template.ts';
import { refuseIfOptedOut } from '../opt-outs.ts';
import { mediaToSend } from '../outbound-media.ts';
import type { OptOutsStore } from '../ports/opt-outs.ts';
import type { OutboundMediaStore } from '../ports/outbound-media.ts';
import type { TemplatesStore } from '../ports/templates.ts';
import type { SendContextLike } from '../send-message.ts';
import { checkCarouselSend, highestVariable } from './resolve-carousel-send.ts';
import { isSendableTemplateStatus } from './sendable-statuses.ts';
import type { NetworkComponent } from './template-rules.ts';

const bad = (field: string, message: string) => new GatewayError('invalid_request', message, { field });

/** The network's limit on the code of an authentication template. */
export const OTP_CODE_MAX = 15;

/** The code is the body's one value; the OTP button (index 0) repeats it, so it may be left out. */
function checkAuthentication(content: TemplateContent, recipient: string) {
  if (isUserId(recipient)) {
    throw bad(
      'to',
      '`to`: an authentication template can only be sent to a phone number, not to a business-scoped user id',
    );
  }
  const field = 'template.components.body.placeholders';
  const code = content.body[0];
  if (content.body.length !== 1 || code === undefined) {
    throw bad(
      field,
      `\`${field}\` must hold one value, the code, for an authentication template; ${content.body.length} given`,
    );
  }
  if ([...code].length > OTP_CODE_MAX) {
    throw bad(`${field}[0]`, `\`${field}[0]\`: the code may be at most ${OTP_CODE_MAX} characters`);
  }
  const buttons = content.buttons;
  const same = buttons.length === 1 && buttons[0]?.index === 0 && buttons[0].parameter === code;
  if (buttons.length > 0 && !same) {
    throw bad(
      'template.components.buttons',
      '`template.components.buttons`: the OTP button takes the same code as the body; leave `buttons` out and the gateway fills it in',
    );
  }
}

function checkHeader(component: NetworkComponent | undefined, content: TemplateContent) {
  const field = 'template.components.header';
  const format = component?.format as string | undefined;
  const needsText = format === 'TEXT' && highestVariable(component?.text) > 0;
  const needsMedia = format !== undefined && format !== 'TEXT';
  if (!needsText && !needsMedia) {
    if (content.header) {
      throw bad(field, `\`${field}\`: this template's header takes no parameter; leave \`header\` out`);
    }
    return;
  }
  if (!content.header) {
    throw bad(
      field,
      needsText
        ? `\`${field}\` is required: this template's header text has a variable; send {"type": "TEXT", "parameter": "..."}`
        : `\`${field}\` is required: this template has a ${format} header; send {"type": "${format}", "mediaUrl": "https://..."}`,
    );
  }
  const expected = needsText ? 'TEXT' : format;
  if (content.header.type !== expected) {
    throw bad(
      `${field}.type`,
      `\`${field}.type\` must be ${expected} for this template, not ${content.header.type}`,
    );
  }
}

function checkBody(component: NetworkComponent | undefined, content: TemplateContent) {
  const expected = highestVariable(component?.text);
  if (content.body.length !== expected) {
    throw bad(
      'template.components.body.placeholders',
      `\`template.components.body.placeholders\` must hold ${expected} value${expected === 1 ? '' : 's'} for this template's body; ${content.body.length} given`,
    );
  }
}

function checkButtons(component: NetworkComponent | undefined, content: TemplateContent) {
  const buttons = (component?.buttons as { type: string; url?: string }[] | undefined) ?? [];
  const needed = buttons.flatMap((b, index) => (b.type === 'URL' && b.url?.endsWith('{{1}}') ? [index] : []));
  const given = content.buttons.map((b) => b.index);
  const missing = needed.filter((i) => !given.includes(i));
  const extra = given.filter((i) => !needed.includes(i));
  if (missing.length > 0 || extra.length > 0) {
    const expectation =
      needed.length === 0
        ? 'this template has no button that takes a parameter'
        : `this template needs a parameter for the URL button${needed.length > 1 ? 's' : ''} at index ${needed.join(' and ')}`;
    throw bad(
      'template.components.buttons',
      `\`template.components.buttons\`: ${expectation}; got ${given.length === 0 ? 'none' : `index ${given.join(', ')}`}`,
    );
  }
}

/** The uploads a send's headers name (`mediaId`), each with the field that named it. */
function uploadsNamed(content: TemplateContent): { mediaId: string; mediaType: string; field: string }[] {
  const named: { mediaId: string; mediaType: string; field: string }[] = [];
  const header = content.header;
  if (header && header.type !== 'TEXT' && header.mediaId !== undefined) {
    named.push({
      mediaId: header.mediaId,
      mediaType: header.type,
      field: 'template.components.header.mediaId',
    });
  }
  content.cards?.forEach((card, i) => {
    if (card.header.mediaId === undefined) return;
    named.push({
      mediaId: card.header.mediaId,
      mediaType: card.header.type,
      field: `template.components.cards[${i}].header.mediaId`,
    });
  });
  return named;
}

/** The network's id of each upload the send names: this account's, for the sending number, of the kind. */
async function resolveUploads(
  uploads: Pick<OutboundMediaStore, 'findOutboundMedia'>,
  accountId: string,
  senderPhone: string,
  content: TemplateContent,
): Promise<Record<string, string> | undefined> {
  const named = uploadsNamed(content);
  if (named.length === 0) return undefined;
  const media: Record<string, string> = {};
  for (const { mediaId, mediaType, field } of named) {
    media[mediaId] = await mediaToSend(uploads, accountId, senderPhone, { mediaId, mediaType }, field);
  }
  return media;
}

export interface TemplateSendStores {
  templates: TemplatesStore;
  uploads: Pick<OutboundMediaStore, 'findOutboundMedia'>;
  optOuts: Pick<OptOutsStore, 'find'>;
}

export async function resolveTemplateSend(
  stores: TemplateSendStores,
  accountId: string,
  senderPhone: string,
  content: TemplateContent,
  recipient: string,
): Promise<SendContextLike> {
  const row = await stores.templates.findByName(accountId, senderPhone, content.name, content.language);
  if (!row) {
    throw new GatewayError(
      'not_found',
      `No template named "${content.name}" in language ${content.language} on +${senderPhone} in this account`,
    );
  }
  if (!isSendableTemplateStatus(row.status)) {
    throw new GatewayError(
      'network_rejected',
      `Template "${content.name}" (${content.language}) is ${row.status}; only APPROVED templates can be sent (and ones the network has FLAGGED or LOCKED)`,
    );
  }
  const components = JSON.parse(row.components) as NetworkComponent[];
  const byType = (type: NetworkComponent['type']) => components.find((c) => c.type === type);
  checkHeader(byType('HEADER'), content);
  const category = row.category;
  if (category === 'AUTHENTICATION') {
    checkAuthentication(content, recipient);
    return { template: { networkName: row.networkName, category } };
  }
  checkBody(byType('BODY'), content);
  checkButtons(byType('BUTTONS'), content);
  // Marketing only: a user who opted out still gets what they asked for (utility, authentication).
  if (category === 'MARKETING') await refuseIfOptedOut(stores.optOuts, accountId, senderPhone, recipient);
  const cardButtons = checkCarouselSend(byType('CAROUSEL'), content.cards);
  const media = await resolveUploads(stores.uploads, accountId, senderPhone, content);
  return {
    template: {
      networkName: row.networkName,
      category,
      ...(cardButtons.length ? { cardButtons } : {}),
      ...(media ? { media } : {}),
    },
  };
}
