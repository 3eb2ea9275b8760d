/**
 * HTML built from tagged templates: html`<p>${value}</p>` escapes every interpolated value, so text from
 * a user, a network or the database can never become markup. Only a `SafeHtml` (the result of another
 * html`...`, or of `trusted()` for text written in this code base) passes through as it is.
 */
import { escapeHtml } from '../lib/escape-html.ts';

export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  // false, null and undefined render nothing, so `${cond && html`...`}` reads naturally.
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Marks markup written in this code base (never input) as safe to insert as it is. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/**
 * A text from outside (a customer's name, a value they gave) set apart from the words around it, with
 * Unicode's first-strong isolate and pop (U+2068, U+2069): a right-to-left name beside a number in
 * brackets must not reorder the number. Plain text, so it serves titles and attributes as well as markup.
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
