/**
 * A media-card carousel template (docs/templates.md §9): a MARKETING message whose body is followed by 2 to 10
 * cards the user swipes through. Each card has an image or video header, an optional short body and one or
 * two buttons; every card has the same parts, so the cards differ only in their content (docs/cloud-api.md
 * §4.3). A card's header, body and buttons follow the rules of a template's own (template-rules.ts), at the
 * card's field.
 *
 * The result is the network's create shape: BODY, then CAROUSEL with `cards: [{components: [...]}]`.
 */
import type { TemplateCardInput, TemplateComponentsInput } from './template-body.ts';
import {
  body,
  buttons,
  header,
  invalid,
  LIMITS,
  type NetworkComponent,
  type TemplateDefinition,
} from './template-rules.ts';

export const CAROUSEL_LIMITS = {
  minCards: 2,
  maxCards: 10,
  cardBody: 160,
  cardButtons: 2,
  cardBodyBreaks: 2,
};

const CARD_HEADER_FORMATS = ['IMAGE', 'VIDEO'] as const;

function refuseOthers(parts: TemplateComponentsInput, category: string) {
  if (category !== 'MARKETING') {
    throw invalid(
      'component.cards',
      `\`component.cards\`: carousel templates are MARKETING only, not ${category}`,
    );
  }
  for (const key of ['header', 'footer', 'buttons'] as const) {
    if (parts[key] !== undefined) {
      throw invalid(
        `component.${key}`,
        `\`component.${key}\` cannot go with \`cards\`: a carousel message has a body and its cards only`,
      );
    }
  }
}

function card(input: TemplateCardInput, i: number, definition: Pick<TemplateDefinition, 'mediaHandles'>) {
  const base = `component.cards[${i}]`;
  // A card's header is a template header limited to an image or a video.
  const components: NetworkComponent[] = [
    header(input.header, definition, `${base}.header`, CARD_HEADER_FORMATS),
  ];
  if (input.body !== undefined) {
    const checked = body(input.body, `${base}.body`, CAROUSEL_LIMITS.cardBody);
    if ((checked.text.match(/\n/g)?.length ?? 0) > CAROUSEL_LIMITS.cardBodyBreaks) {
      throw invalid(
        `${base}.body.text`,
        `\`${base}.body.text\` may hold at most ${CAROUSEL_LIMITS.cardBodyBreaks} line breaks`,
      );
    }
    components.push(checked);
  }
  components.push(buttons(input.buttons, `${base}.buttons`, CAROUSEL_LIMITS.cardButtons));
  return { components };
}

/** What every card must share: its header's format, whether it has a body, its button types in order. */
function shapeOf(input: TemplateCardInput): string {
  const kinds = input.buttons.map((b) => b.type.toUpperCase()).join(', ');
  return `header ${input.header.format.toUpperCase()}, ${input.body ? 'a body' : 'no body'}, buttons ${kinds}`;
}

export function carouselComponents(
  parts: TemplateComponentsInput,
  category: string,
  definition: Pick<TemplateDefinition, 'mediaHandles'>,
): NetworkComponent[] {
  refuseOthers(parts, category);
  const cards = parts.cards ?? [];
  const { minCards, maxCards } = CAROUSEL_LIMITS;
  if (cards.length < minCards || cards.length > maxCards) {
    throw invalid(
      'component.cards',
      `\`component.cards\` must hold ${minCards} to ${maxCards} cards; it has ${cards.length}`,
    );
  }
  const message = body(parts.body, 'component.body', LIMITS.body);
  const checked = cards.map((input, i) => card(input, i, definition));
  const first = shapeOf(cards[0] as TemplateCardInput);
  cards.forEach((input, i) => {
    if (shapeOf(input) !== first) {
      throw invalid(
        `component.cards[${i}]`,
        `\`component.cards[${i}]\` must have the same parts as the first card (${first}); it has ${shapeOf(input)}`,
      );
    }
  });
  return [message, { type: 'CAROUSEL', cards: checked }];
}
