/**
 * The cards of a carousel template send (docs/sending.md, "Carousel template"): for each card of the
 * template, in order, its image or video, the values of its body's variables and its buttons' parameters.
 * Whether they fit the approved template is checked when it is resolved
 * (templates/resolve-carousel-send.ts); here only their shape.
 */
import { Type } from 'typebox';
import { mediaSource } from './send-media.ts';
import type { ResolvedTemplate } from './send-operation.ts';
import { ok, type RuleResult, refuse, text } from './send-operation.ts';
import { cloudMedia, type MediaOf } from './template-header-media.ts';

/** docs/cloud-api.md §1.3: a text parameter may hold up to 1024 characters. */
export const PARAMETER_MAX = 1024;
const CARD_MEDIA = ['IMAGE', 'VIDEO'] as const;

export const parameterList = Type.Array(text(1, PARAMETER_MAX), { maxItems: 100 });

export const buttonParameters = Type.Array(
  Type.Object(
    {
      index: Type.Integer({ minimum: 0, maximum: 9, description: 'zero-based button position' }),
      parameter: text(1, 2000, {
        description: "a URL button's suffix for its variable {{1}}, or a card quick reply's payload",
      }),
    },
    { additionalProperties: false },
  ),
  { maxItems: 10 },
);

export const cardSchema = Type.Object(
  {
    header: Type.Object(
      {
        type: text(1, 16, { description: 'IMAGE or VIDEO, as the card header of the template' }),
        mediaUrl: Type.Optional(
          text(1, 2048, { description: 'the absolute https:// URL of the image or video' }),
        ),
        mediaId: Type.Optional(
          text(1, 64, { description: 'an upload of this number (POST /api/v1/media), instead of mediaUrl' }),
        ),
      },
      { additionalProperties: false },
    ),
    body: Type.Optional(
      Type.Object(
        { placeholders: Type.Optional(parameterList), parameters: Type.Optional(parameterList) },
        { additionalProperties: false },
      ),
    ),
    buttons: Type.Optional(buttonParameters),
  },
  { additionalProperties: false },
);

type CardInput = {
  header: { type: string; mediaUrl?: string; mediaId?: string };
  body?: { placeholders?: string[]; parameters?: string[] };
  buttons?: { index: number; parameter: string }[];
};

export interface CardContent {
  header: { type: (typeof CARD_MEDIA)[number] } & MediaOf;
  body: string[];
  buttons: { index: number; parameter: string }[];
}

/** `placeholders` and its other spelling `parameters`, at `field`. */
export function placeholdersOf(
  input: { placeholders?: string[]; parameters?: string[] } | undefined,
  field: string,
): RuleResult<string[]> {
  const p = input?.placeholders;
  const q = input?.parameters;
  if (p && q && JSON.stringify(p) !== JSON.stringify(q)) {
    return refuse(
      `${field}.parameters`,
      '`placeholders` and `parameters` are two spellings of one field; send one, or the same values in both',
    );
  }
  const values = p ?? q ?? [];
  const spelling = p ? 'placeholders' : 'parameters';
  for (const [i, value] of values.entries()) {
    const problem = templateTextProblem(value);
    if (problem) return refuse(`${field}.${spelling}[${i}]`, `\`${field}.${spelling}[${i}]\` ${problem}`);
  }
  return ok(values);
}

/**
 * What the network refuses in a template's text parameter (error 132018, code 100 before v23.0): a new line,
 * a tab, or more than four spaces in a row. Undefined when the text is fine.
 */
export function templateTextProblem(value: string): string | undefined {
  return /[\r\n\t]| {5,}/.test(value)
    ? 'may hold no new line or tab and at most four spaces in a row (the network refuses such a parameter)'
    : undefined;
}

/** Button parameters sorted by index, each index once. */
export function buttonsOf(
  input: { index: number; parameter: string }[] | undefined,
  field: string,
): RuleResult<{ index: number; parameter: string }[]> {
  const seen = new Set<number>();
  for (const [i, b] of (input ?? []).entries()) {
    if (seen.has(b.index)) {
      return refuse(`${field}[${i}].index`, `\`${field}[${i}].index\` ${b.index} repeats an earlier button`);
    }
    seen.add(b.index);
  }
  return ok([...(input ?? [])].sort((a, b) => a.index - b.index));
}

function card(input: CardInput, field: string): RuleResult<CardContent> {
  const type = input.header.type.toUpperCase();
  if (!(CARD_MEDIA as readonly string[]).includes(type)) {
    return refuse(`${field}.header.type`, `\`${field}.header.type\` must be IMAGE or VIDEO`);
  }
  const source = mediaSource(input.header, `${field}.header.`);
  if ('field' in source) return refuse(source.field, source.message);
  const body = placeholdersOf(input.body, `${field}.body`);
  if (!body.ok) return body;
  const buttons = buttonsOf(input.buttons, `${field}.buttons`);
  if (!buttons.ok) return buttons;
  return ok({
    header: { type: type as CardContent['header']['type'], ...source },
    body: body.value,
    buttons: buttons.value,
  });
}

export function cardsOf(input: CardInput[]): RuleResult<CardContent[]> {
  const cards: CardContent[] = [];
  for (const [i, given] of input.entries()) {
    const checked = card(given, `template.components.cards[${i}]`);
    if (!checked.ok) return checked;
    cards.push(checked.value);
  }
  return ok(cards);
}

/** The network's `carousel` component: each card by its index, with its media, values and buttons. */
export function cloudCarousel(cards: CardContent[], template: ResolvedTemplate) {
  const kinds = template.cardButtons ?? [];
  return {
    type: 'carousel',
    cards: cards.map((c, i) => {
      const kind = c.header.type.toLowerCase();
      const components: unknown[] = [
        { type: 'header', parameters: [{ type: kind, [kind]: cloudMedia(c.header, template) }] },
      ];
      if (c.body.length > 0) {
        components.push({ type: 'body', parameters: c.body.map((value) => ({ type: 'text', text: value })) });
      }
      for (const b of c.buttons) {
        const quickReply = kinds[b.index] === 'QUICK_REPLY';
        components.push({
          type: 'button',
          sub_type: quickReply ? 'quick_reply' : 'url',
          index: String(b.index),
          parameters: [
            quickReply ? { type: 'payload', payload: b.parameter } : { type: 'text', text: b.parameter },
          ],
        });
      }
      return { card_index: i, components };
    }),
  };
}
