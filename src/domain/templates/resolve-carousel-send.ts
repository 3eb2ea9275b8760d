/**
 * The cards of a carousel template send against the approved template's cards (docs/sending.md, "Carousel
 * template"): one card for each card of the template, in order; each with media of the card header's kind,
 * one value per variable of the card's body, a suffix for each URL button with a variable, and at most a
 * payload for each quick reply. Each mismatch is a 400 naming the card and what it expects.
 */
import { GatewayError } from '../errors.ts';
import type { CardContent } from '../messages/template-cards.ts';
import type { NetworkComponent } from './template-rules.ts';

const bad = (field: string, message: string) => new GatewayError('invalid_request', message, { field });

type CardButton = { type: string; url?: string };
type TemplateCard = { components: NetworkComponent[] };

export function highestVariable(text: unknown): number {
  let highest = 0;
  for (const m of String(text ?? '').matchAll(/\{\{(\d+)\}\}/g)) highest = Math.max(highest, Number(m[1]));
  return highest;
}

function checkCardButtons(expected: CardButton[], given: CardContent['buttons'], field: string) {
  for (const b of given) {
    const button = expected[b.index];
    const takesParameter =
      button?.type === 'QUICK_REPLY' || (button?.type === 'URL' && button.url?.endsWith('{{1}}'));
    if (!takesParameter) {
      throw bad(
        field,
        `\`${field}\`: the button at index ${b.index} ${button ? `(${button.type}) takes no parameter` : 'does not exist on this card'}`,
      );
    }
  }
  expected.forEach((button, index) => {
    if (button.type === 'URL' && button.url?.endsWith('{{1}}') && !given.some((b) => b.index === index)) {
      throw bad(field, `\`${field}\` needs the suffix of the URL button at index ${index}`);
    }
  });
}

function checkCard(card: TemplateCard, given: CardContent, i: number) {
  const field = `template.components.cards[${i}]`;
  const part = (type: string) => card.components.find((c) => c.type === type);
  const format = part('HEADER')?.format;
  if (given.header.type !== format) {
    throw bad(
      `${field}.header.type`,
      `\`${field}.header.type\` must be ${String(format)}, as this card's header`,
    );
  }
  const variables = highestVariable(part('BODY')?.text);
  if (given.body.length !== variables) {
    throw bad(
      `${field}.body.placeholders`,
      `\`${field}.body.placeholders\` must hold ${variables} value${variables === 1 ? '' : 's'} for this card's body; ${given.body.length} given`,
    );
  }
  checkCardButtons(
    (part('BUTTONS')?.buttons as CardButton[] | undefined) ?? [],
    given.buttons,
    `${field}.buttons`,
  );
}

/** Checks the send's cards; returns the types of the cards' buttons in order (all cards share them). */
export function checkCarouselSend(
  carousel: NetworkComponent | undefined,
  cards: CardContent[] | undefined,
): string[] {
  const field = 'template.components.cards';
  if (!carousel) {
    if (cards) throw bad(field, `\`${field}\`: this template is not a carousel; leave \`cards\` out`);
    return [];
  }
  const expected = (carousel.cards as TemplateCard[] | undefined) ?? [];
  if (cards?.length !== expected.length) {
    throw bad(
      field,
      `\`${field}\` must hold ${expected.length} cards, one for each card of this carousel template, in order; ${cards?.length ?? 0} given`,
    );
  }
  expected.forEach((card, i) => {
    checkCard(card, cards[i] as CardContent, i);
  });
  const buttons = expected[0]?.components.find((c) => c.type === 'BUTTONS')?.buttons as
    | CardButton[]
    | undefined;
  return (buttons ?? []).map((b) => b.type);
}
