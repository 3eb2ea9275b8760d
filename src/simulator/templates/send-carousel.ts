/**
 * The `carousel` component of a carousel template send (docs/cloud-api.md §1.3 template): every card of the
 * template exactly once, by `card_index` (0 first), each with its own components: a `header` with one
 * media parameter of the card's format (`link` or `id`), a `body` with the card body's variables, and
 * `button` components as for the template's own buttons (a URL suffix, a quick reply's payload).
 * Mismatches are the errors of send-values.ts, naming the card and its component.
 */
import { isObject } from '../validate-fields.ts';
import type { FilledParameters } from './filled-template.ts';
import type { CarouselCard, TemplateContent } from './model.ts';
import { buttonParameters } from './send-buttons.ts';
import {
  bodyValues,
  countMismatch,
  type Located,
  mediaHeader,
  parametersOf,
  positionOf,
  problem,
  splitComponents,
} from './send-values.ts';

type Carousel = NonNullable<TemplateContent['carousel']>;
type FilledCard = NonNullable<FilledParameters['cards']>[number];

function fillCard(card: CarouselCard, format: Carousel['format'], part: Located, index: number): FilledCard {
  const parts = splitComponents(part.component.components, `${part.path}.components`, ['header', 'body']);
  const owner = `card ${index} `;
  const header = parametersOf(parts.header);
  if (header.length !== 1) throw countMismatch(`${owner}header`, 1, header.length);
  const kind = format.toLowerCase();
  const at = `${parts.header?.path}.parameters[0]`;
  const filledHeader = mediaHeader(
    kind,
    header[0],
    at,
    `card ${index} has ${format === 'IMAGE' ? 'an' : 'a'} ${format} header`,
  );
  const body = bodyValues(card.body ?? { text: '', variables: 0 }, parts.body, `${owner}body`);
  return { header: filledHeader, body, ...buttonParameters(card.buttons, parts.buttons, owner) };
}

export function fillCards(carousel: Carousel, part: Located | undefined): FilledCard[] {
  const expected = carousel.cards.length;
  const cards = part?.component.cards;
  if (part && !Array.isArray(cards)) throw problem(100, `Parameter '${part.path}.cards' must be an array.`);
  const given = Array.isArray(cards) ? cards : [];
  if (given.length !== expected) {
    throw problem(
      132000,
      `The carousel component of the template expects ${expected} cards, ${given.length} given.`,
    );
  }
  const filled: FilledCard[] = [];
  given.forEach((raw: unknown, k: number) => {
    const at = `${part?.path}.cards[${k}]`;
    if (!isObject(raw)) throw problem(100, `Parameter '${at}' must be an object.`);
    const index = positionOf(raw.card_index);
    const card = carousel.cards[index];
    if (!card) {
      throw problem(
        132000,
        `Parameter '${at}.card_index' ${JSON.stringify(raw.card_index)} names no card: the template has ${expected} (0 to ${expected - 1}).`,
      );
    }
    if (filled[index]) throw problem(100, `Parameter '${at}.card_index' repeats card ${index}.`);
    filled[index] = fillCard(card, carousel.format, { component: raw, path: at }, index);
  });
  return filled;
}
