/**
 * A media-card carousel template (docs/cloud-api.md §4.2, §4.3): a MARKETING message with a BODY and a
 * CAROUSEL of 2 to 10 cards the user swipes through. Each card has an IMAGE or VIDEO header (one handle),
 * an optional BODY of at most 160 characters and 2 line breaks, and 1 or 2 buttons (QUICK_REPLY, URL,
 * PHONE_NUMBER). Every card has the same parts: the same header format, a body in all or in none, and the
 * same button types in the same order, so the cards differ only in their content. Refusals name the field
 * inside the card, e.g. `components.CAROUSEL.cards[1].BUTTONS.buttons[0].type`.
 */
import type { Json } from '../validate-fields.ts';
import { invalidField } from './errors.ts';
import type { CarouselCard, TemplateCategory, TemplateContent } from './model.ts';
import { oneOf, requireArray, requireObject } from './read-fields.ts';
import { oneButton } from './validate-buttons.ts';
import { checkBody, checkHeader } from './validate-text-parts.ts';

export const CAROUSEL_LIMITS = {
  minCards: 2,
  maxCards: 10,
  cardBody: 160,
  cardBodyBreaks: 2,
  cardButtons: 2,
};

const CARD_COMPONENT_TYPES = ['HEADER', 'BODY', 'BUTTONS'] as const;
const CARD_BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const;
const CARD_HEADER_FORMATS = ['IMAGE', 'VIDEO'] as const;

interface CheckedCard {
  wire: Json;
  format: 'IMAGE' | 'VIDEO';
  card: CarouselCard;
}

function cardButtons(input: Json, prefix: string, category: TemplateCategory) {
  const field = `${prefix}.BUTTONS.buttons`;
  const list = requireArray(input.buttons, field);
  if (list.length === 0 || list.length > CAROUSEL_LIMITS.cardButtons) {
    throw invalidField(field, `must hold 1 to ${CAROUSEL_LIMITS.cardButtons} buttons (got ${list.length})`);
  }
  const checked = list.map((raw, i) => {
    const at = `${field}[${i}]`;
    oneOf(requireObject(raw, at).type, CARD_BUTTON_TYPES, `${at}.type`);
    return oneButton(raw, at, category);
  });
  return {
    wire: { type: 'BUTTONS', buttons: checked.map((c) => c.wire) },
    buttons: checked.map((c) => c.button),
  };
}

/** A card's components by type, each at most once. */
function cardParts(input: Json, prefix: string): Map<string, Json> {
  const list = requireArray(input.components, `${prefix}.components`);
  const parts = new Map<string, Json>();
  list.forEach((item, j) => {
    const component = requireObject(item, `${prefix}.components[${j}]`);
    const type = oneOf(component.type, CARD_COMPONENT_TYPES, `${prefix}.components[${j}].type`);
    if (parts.has(type)) {
      throw invalidField(`${prefix}.components[${j}].type`, `repeats ${type}; each component appears once`);
    }
    parts.set(type, component);
  });
  return parts;
}

function oneCard(raw: unknown, prefix: string, category: TemplateCategory): CheckedCard {
  const parts = cardParts(requireObject(raw, prefix), prefix);
  const headerInput = parts.get('HEADER');
  const buttonsInput = parts.get('BUTTONS');
  if (!headerInput) throw invalidField(`${prefix}.components`, 'must include a HEADER (IMAGE or VIDEO)');
  if (!buttonsInput) throw invalidField(`${prefix}.components`, 'must include BUTTONS (1 or 2)');
  const header = checkHeader(headerInput, prefix, CARD_HEADER_FORMATS);
  const bodyInput = parts.get('BODY');
  const body = bodyInput ? checkBody(bodyInput, prefix, CAROUSEL_LIMITS.cardBody) : undefined;
  const breaks = body?.body.text.match(/\n/g)?.length ?? 0;
  if (breaks > CAROUSEL_LIMITS.cardBodyBreaks) {
    throw invalidField(
      `${prefix}.BODY.text`,
      `may hold at most ${CAROUSEL_LIMITS.cardBodyBreaks} line breaks (got ${breaks})`,
    );
  }
  const buttons = cardButtons(buttonsInput, prefix, category);
  return {
    wire: { components: [header.wire, ...(body ? [body.wire] : []), buttons.wire] },
    format: header.header.format as CheckedCard['format'],
    card: { ...(body ? { body: body.body } : {}), buttons: buttons.buttons },
  };
}

/** Card `i` against the first card: the same header format, body or none, and button types in order. */
function sameAsFirst(first: CheckedCard, card: CheckedCard, i: number): void {
  const prefix = `components.CAROUSEL.cards[${i}]`;
  if (card.format !== first.format) {
    throw invalidField(
      `${prefix}.HEADER.format`,
      `must be ${first.format} like card 0's: every card has the same header format`,
    );
  }
  if (Boolean(card.card.body) !== Boolean(first.card.body)) {
    throw invalidField(
      first.card.body ? `${prefix}.components` : `${prefix}.BODY`,
      first.card.body
        ? 'must include a BODY: card 0 has one, and when one card has a body every card has one'
        : 'is not allowed: card 0 has no body, and when one card has a body every card has one',
    );
  }
  const types = (c: CheckedCard) => c.card.buttons.map((b) => b.type);
  const [mine, theirs] = [types(card), types(first)];
  if (mine.length !== theirs.length) {
    throw invalidField(
      `${prefix}.BUTTONS.buttons`,
      `must hold ${theirs.length} button${theirs.length === 1 ? '' : 's'} like card 0 (${theirs.join(', ')}): every card has the same buttons`,
    );
  }
  const j = mine.findIndex((type, k) => type !== theirs[k]);
  if (j >= 0) {
    throw invalidField(
      `${prefix}.BUTTONS.buttons[${j}].type`,
      `must be ${theirs[j]} like card 0's button ${j}: every card has the same button types in the same order`,
    );
  }
}

export function checkCarousel(
  input: Json,
  category: TemplateCategory,
): { wire: Json; carousel: NonNullable<TemplateContent['carousel']> } {
  const field = 'components.CAROUSEL.cards';
  const list = requireArray(input.cards, field);
  const { minCards, maxCards } = CAROUSEL_LIMITS;
  if (list.length < minCards || list.length > maxCards) {
    throw invalidField(field, `must hold ${minCards} to ${maxCards} cards (got ${list.length})`);
  }
  const cards = list.map((raw, i) => oneCard(raw, `${field}[${i}]`, category));
  const first = cards[0] as CheckedCard;
  for (const [i, card] of cards.entries()) sameAsFirst(first, card, i);
  return {
    wire: { type: 'CAROUSEL', cards: cards.map((c) => c.wire) },
    carousel: { format: first.format, cards: cards.map((c) => c.card) },
  };
}

/** The components of a carousel template, by type with where each was (`components[i]`). */
export function carouselContent(
  parts: Map<string, { input: Json; at: string }>,
  category: TemplateCategory,
  body: { wire: Json; body: TemplateContent['body'] },
): TemplateContent {
  const carousel = parts.get('CAROUSEL') as { input: Json; at: string };
  if (category !== 'MARKETING') {
    throw invalidField(`${carousel.at}.type`, `CAROUSEL is for MARKETING templates only (not ${category})`);
  }
  for (const type of ['HEADER', 'FOOTER', 'BUTTONS']) {
    const part = parts.get(type);
    if (part) {
      throw invalidField(
        `${part.at}.type`,
        `${type} is not allowed beside a CAROUSEL: a carousel template has only BODY and CAROUSEL`,
      );
    }
  }
  const checked = checkCarousel(carousel.input, category);
  return {
    components: [body.wire, checked.wire],
    body: body.body,
    buttons: [],
    carousel: checked.carousel,
  };
}
