/**
 * The template send (docs/contract.md §3, an addition to the original operations): the one message allowed outside the 24-hour
 * session, so the way a business opens a conversation. The body names the template by name and language
 * and gives its parameters; the pipeline resolves the APPROVED template of the sending number
 * (templates/resolve-template-send.ts), which checks that the parameters fit it, before anything is sent.
 */
import { Type } from 'typebox';
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

const MEDIA_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;
/** docs/cloud-api.md §1.3: a text parameter may hold up to 1024 characters. */
const PARAMETER_MAX = 1024;

type HeaderInput = { type: string; parameter?: string; mediaUrl?: string; filename?: string };
type Body = CommonFields & {
  template: {
    name: string;
    language?: string;
    languageCode?: string;
    components?: {
      header?: HeaderInput;
      body?: { placeholders?: string[]; parameters?: string[] };
      buttons?: { index: number; parameter: string }[];
    };
  };
};

export type TemplateHeaderParameter =
  | { type: 'TEXT'; parameter: string }
  | { type: (typeof MEDIA_FORMATS)[number]; mediaUrl: string; filename?: string };

export interface TemplateContent {
  name: string;
  language: string;
  header?: TemplateHeaderParameter;
  body: string[];
  buttons: { index: number; parameter: string }[];
}

const parameterList = Type.Array(text(1, PARAMETER_MAX), { maxItems: 100 });

function header(input: HeaderInput) {
  const field = 'template.components.header';
  const type = input.type.toUpperCase();
  if (type === 'TEXT') {
    if (input.mediaUrl !== undefined || input.filename !== undefined) {
      return refuse(
        `${field}.mediaUrl`,
        `\`${field}.mediaUrl\` and \`filename\` are for IMAGE, VIDEO and DOCUMENT headers`,
      );
    }
    if (input.parameter === undefined)
      return refuse(`${field}.parameter`, `\`${field}.parameter\` is required for a TEXT header`);
    return ok({ type: 'TEXT' as const, parameter: input.parameter });
  }
  if (!(MEDIA_FORMATS as readonly string[]).includes(type)) {
    return refuse(`${field}.type`, `\`${field}.type\` must be TEXT, IMAGE, VIDEO or DOCUMENT`);
  }
  if (input.parameter !== undefined) {
    return refuse(
      `${field}.parameter`,
      `\`${field}.parameter\` is for a TEXT header; a ${type} header takes \`mediaUrl\``,
    );
  }
  if (input.mediaUrl === undefined || !/^https:\/\/[^\s/]+\S*$/.test(input.mediaUrl)) {
    return refuse(
      `${field}.mediaUrl`,
      `\`${field}.mediaUrl\` must be an absolute https:// URL for a ${type} header`,
    );
  }
  if (input.filename !== undefined && type !== 'DOCUMENT') {
    return refuse(`${field}.filename`, `\`${field}.filename\` is for DOCUMENT headers only`);
  }
  return ok({
    type: type as (typeof MEDIA_FORMATS)[number],
    mediaUrl: input.mediaUrl,
    ...(input.filename !== undefined ? { filename: input.filename } : {}),
  });
}

function cloudHeader(h: TemplateHeaderParameter) {
  if (h.type === 'TEXT') return { type: 'text', text: h.parameter };
  const kind = h.type.toLowerCase();
  return { type: kind, [kind]: { link: h.mediaUrl, ...(h.filename ? { filename: h.filename } : {}) } };
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
              buttons: Type.Optional(
                Type.Array(
                  Type.Object(
                    {
                      index: Type.Integer({
                        minimum: 0,
                        maximum: 9,
                        description: 'zero-based button position',
                      }),
                      parameter: text(1, 2000, { description: 'the URL suffix for the variable {{1}}' }),
                    },
                    { additionalProperties: false },
                  ),
                  { maxItems: 10 },
                ),
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
    let placeholders: string[] = [];
    if (parts.body) {
      const p = parts.body.placeholders;
      const q = parts.body.parameters;
      if (p && q && JSON.stringify(p) !== JSON.stringify(q)) {
        return refuse(
          'template.components.body.parameters',
          '`placeholders` and `parameters` are two spellings of one field; send one, or the same values in both',
        );
      }
      placeholders = p ?? q ?? [];
    }
    const buttons = parts.buttons ?? [];
    const seen = new Set<number>();
    for (const [i, b] of buttons.entries()) {
      if (seen.has(b.index)) {
        return refuse(
          `template.components.buttons[${i}].index`,
          `\`template.components.buttons[${i}].index\` ${b.index} repeats an earlier button`,
        );
      }
      seen.add(b.index);
    }
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
      body: placeholders,
      buttons: [...buttons].sort((a, b) => a.index - b.index),
    });
  },
  toCloud(content, context: SendContext) {
    // The pipeline resolves the template before building the message; reaching here without it is a bug.
    if (!context.template) throw new Error('a template send needs the resolved template in its context');
    const components: unknown[] = [];
    if (content.header) components.push({ type: 'header', parameters: [cloudHeader(content.header)] });
    if (content.body.length > 0) {
      components.push({ type: 'body', parameters: content.body.map((text) => ({ type: 'text', text })) });
    }
    for (const b of content.buttons) {
      components.push({
        type: 'button',
        sub_type: 'url',
        index: String(b.index),
        parameters: [{ type: 'text', text: b.parameter }],
      });
    }
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
