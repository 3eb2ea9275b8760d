/**
 * The template send (docs/contract.md §3, an addition to the original operations): the one message allowed outside the 24-hour
 * session, so the way a business opens a conversation. The body names the template by name and language
 * and gives its parameters; the pipeline resolves the APPROVED template of the sending number
 * (templates/resolve-template-send.ts), which checks that the parameters fit it, before anything is sent.
 *
 * An authentication template takes its code as its one body value, and the gateway repeats it in the OTP
 * button as the network requires; a carousel template takes its cards' values in `cards` (template-cards.ts).
 */
import { Type } from 'typebox';
import { mediaSource } from './send-media.ts';
import type { ResolvedTemplate } from './send-operation.ts';
import {
  type CommonFields,
  commonFields,
  eitherSpelling,
  ok,
  refuse,
  type SendContext,
  type SendOperation,
  text,
} from './send-operation.ts';
import {
  buttonParameters,
  buttonsOf,
  type CardContent,
  cardSchema,
  cardsOf,
  cloudCarousel,
  PARAMETER_MAX,
  parameterList,
  placeholdersOf,
  templateTextProblem,
} from './template-cards.ts';
import { cloudMedia, type MediaOf } from './template-header-media.ts';

const MEDIA_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;

type HeaderInput = {
  type: string;
  parameter?: string;
  mediaUrl?: string;
  mediaId?: string;
  filename?: string;
};
/** A template send's request (docs/sending.md); a campaign builds one per recipient. */
export type TemplateSendBody = Body;
type Body = CommonFields & {
  template: {
    name: string;
    language?: string;
    languageCode?: string;
    components?: {
      header?: HeaderInput;
      body?: { placeholders?: string[]; parameters?: string[] };
      buttons?: { index: number; parameter: string }[];
      cards?: {
        header: { type: string; mediaUrl?: string; mediaId?: string };
        body?: { placeholders?: string[]; parameters?: string[] };
        buttons?: { index: number; parameter: string }[];
      }[];
    };
  };
};

export type TemplateHeaderParameter =
  | { type: 'TEXT'; parameter: string }
  | ({ type: (typeof MEDIA_FORMATS)[number]; filename?: string } & MediaOf);

export interface TemplateContent {
  name: string;
  language: string;
  header?: TemplateHeaderParameter;
  body: string[];
  buttons: { index: number; parameter: string }[];
  /** A carousel template's cards, in order; absent for every other template. */
  cards?: CardContent[];
}

function header(input: HeaderInput) {
  const field = 'template.components.header';
  const type = input.type.toUpperCase();
  if (type === 'TEXT') {
    const media = ['mediaUrl', 'mediaId', 'filename'] as const;
    const given = media.find((key) => input[key] !== undefined);
    if (given) {
      return refuse(`${field}.${given}`, `\`${field}.${given}\` is for IMAGE, VIDEO and DOCUMENT headers`);
    }
    if (input.parameter === undefined)
      return refuse(`${field}.parameter`, `\`${field}.parameter\` is required for a TEXT header`);
    const problem = templateTextProblem(input.parameter);
    if (problem) return refuse(`${field}.parameter`, `\`${field}.parameter\` ${problem}`);
    return ok({ type: 'TEXT' as const, parameter: input.parameter });
  }
  if (!(MEDIA_FORMATS as readonly string[]).includes(type)) {
    return refuse(`${field}.type`, `\`${field}.type\` must be TEXT, IMAGE, VIDEO or DOCUMENT`);
  }
  if (input.parameter !== undefined) {
    return refuse(
      `${field}.parameter`,
      `\`${field}.parameter\` is for a TEXT header; a ${type} header takes \`mediaUrl\` or \`mediaId\``,
    );
  }
  const source = mediaSource(input, `${field}.`);
  if ('field' in source) return refuse(source.field, source.message);
  if (input.filename !== undefined && type !== 'DOCUMENT') {
    return refuse(`${field}.filename`, `\`${field}.filename\` is for DOCUMENT headers only`);
  }
  return ok({
    type: type as (typeof MEDIA_FORMATS)[number],
    ...source,
    ...(input.filename !== undefined ? { filename: input.filename } : {}),
  });
}

function cloudHeader(h: TemplateHeaderParameter, template: ResolvedTemplate) {
  if (h.type === 'TEXT') return { type: 'text', text: h.parameter };
  const kind = h.type.toLowerCase();
  return {
    type: kind,
    [kind]: { ...cloudMedia(h, template), ...(h.filename ? { filename: h.filename } : {}) },
  };
}

const bodySchema = Type.Object(
  {
    ...commonFields,
    template: Type.Object(
      {
        name: text(1, 512, { description: 'the template name' }),
        language: Type.Optional(text(1, 16, { description: 'the template language, e.g. en_US' })),
        languageCode: Type.Optional(text(1, 16, { description: 'another spelling of `language`' })),
        components: Type.Optional(
          Type.Object(
            {
              header: Type.Optional(
                Type.Object(
                  {
                    type: text(1, 16, { description: 'TEXT, IMAGE, VIDEO or DOCUMENT' }),
                    parameter: Type.Optional(text(1, PARAMETER_MAX)),
                    mediaUrl: Type.Optional(text(1, 2048)),
                    mediaId: Type.Optional(
                      text(1, 64, {
                        description: 'an upload of this number (POST /api/v1/media), instead of mediaUrl',
                      }),
                    ),
                    filename: Type.Optional(text(1, 240)),
                  },
                  { additionalProperties: false },
                ),
              ),
              body: Type.Optional(
                Type.Object(
                  {
                    placeholders: Type.Optional(parameterList),
                    parameters: Type.Optional(parameterList),
                  },
                  { additionalProperties: false },
                ),
              ),
              buttons: Type.Optional(buttonParameters),
              cards: Type.Optional(
                Type.Array(cardSchema, {
                  maxItems: 10,
                  description: "a carousel template's cards, one for each card of the template, in order",
                }),
              ),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const sendTemplate: SendOperation<Body, TemplateContent, typeof bodySchema> = {
  kind: 'template',
  summary: 'Send an approved template (allowed outside the 24-hour session)',
  bodySchema,
  normalize(body) {
    const t = body.template;
    const language = eitherSpelling(
      { name: 'template.language', value: t.language },
      { name: 'template.languageCode', value: t.languageCode },
    );
    if (!language.ok) return language;
    const parts = t.components ?? {};
    const placeholders = placeholdersOf(parts.body, 'template.components.body');
    if (!placeholders.ok) return placeholders;
    const buttons = buttonsOf(parts.buttons, 'template.components.buttons');
    if (!buttons.ok) return buttons;
    const cards = parts.cards === undefined ? undefined : cardsOf(parts.cards);
    if (cards && !cards.ok) return cards;
    let headerParameter: TemplateHeaderParameter | undefined;
    if (parts.header) {
      const checked = header(parts.header);
      if (!checked.ok) return checked;
      headerParameter = checked.value;
    }
    return ok({
      name: t.name,
      language: language.value,
      ...(headerParameter ? { header: headerParameter } : {}),
      body: placeholders.value,
      buttons: buttons.value,
      // Only a carousel send has the key, so the request hash of every other send stays as it was.
      ...(cards ? { cards: cards.value } : {}),
    });
  },
  toCloud(content, context: SendContext) {
    // The pipeline resolves the template before building the message; reaching here without it is a bug.
    if (!context.template) throw new Error('a template send needs the resolved template in its context');
    const components: unknown[] = [];
    if (content.header)
      components.push({ type: 'header', parameters: [cloudHeader(content.header, context.template)] });
    if (content.body.length > 0) {
      components.push({ type: 'body', parameters: content.body.map((text) => ({ type: 'text', text })) });
    }
    // The network wants an authentication code twice: in the body and in the OTP button (index 0).
    const otpButton =
      context.template.category === 'AUTHENTICATION' && content.buttons.length === 0 && content.body[0]
        ? [{ index: 0, parameter: content.body[0] }]
        : [];
    for (const b of [...content.buttons, ...otpButton]) {
      components.push({
        type: 'button',
        sub_type: 'url',
        index: String(b.index),
        parameters: [{ type: 'text', text: b.parameter }],
      });
    }
    if (content.cards) components.push(cloudCarousel(content.cards, context.template));
    return {
      type: 'template',
      template: {
        name: context.template.networkName,
        language: { code: content.language, policy: 'deterministic' },
        ...(components.length > 0 ? { components } : {}),
      },
    };
  },
};
