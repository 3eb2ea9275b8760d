/**
 * What the simulated review rejects as INVALID_FORMAT (docs/cloud-api.md §4.3: no adjacent {{1}}{{2}}; too many
 * variables for the length). A variable at the very start or end of the body is refused earlier, at the create
 * itself, as Meta does (2388299, validate-text-parts.ts). Meta does not publish the density
 * rule; the simulator's is: the body's fixed text (the text without its variables) must hold at least two
 * words per variable occurrence, a word being a run of letters or digits. docs/cloud-api.md §4.2's own example,
 * "Hi {{1}}, your order ships {{2}}.", has four words for two variables and passes.
 *
 * Only the body is judged: a header's single variable may end it ("Order {{1}}" is docs/cloud-api.md §4.2's
 * example header).
 */
import type { TemplateContent } from './model.ts';
import { ADJACENT_VARIABLES, fixedText, variablesOf } from './variables.ts';

export const WORDS_PER_VARIABLE = 2;

export interface FormatProblem {
  reason: string;
  recommendation: string;
}

const WORD = /[\p{L}\p{N}]+/gu;

export function formatProblem(content: TemplateContent): FormatProblem | undefined {
  const text = content.body.text;
  if (ADJACENT_VARIABLES.test(text)) {
    return {
      reason: 'The body text has two variables next to each other.',
      recommendation: 'Put fixed text between variables.',
    };
  }
  const occurrences = variablesOf(text, 'components.BODY.text').length;
  const words = fixedText(text).match(WORD)?.length ?? 0;
  if (words < WORDS_PER_VARIABLE * occurrences) {
    return {
      reason: `The body text has too many variables for its length: ${occurrences} variables and ${words} words of fixed text.`,
      recommendation: `Write at least ${WORDS_PER_VARIABLE} words of fixed text per variable, or use fewer variables.`,
    };
  }
  return undefined;
}
