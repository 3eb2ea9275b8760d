/**
 * What a person sees for a template message (the phone's `rendered` text), in the style of render.ts for
 * interactive messages: the header in bold (or `[image: <link>]` for a media header), the body with its
 * variables filled in, the footer in italics, quick replies in brackets on one line, and each
 * call-to-action button on a line of its own with its target.
 */
import type { TemplateButton, TemplateContent } from './model.ts';
import { fillVariables } from './variables.ts';

export interface FilledParameters {
  /** The header line as shown (already filled or described). */
  header?: string;
  body: string[];
  /** Button index → its parameter: a URL suffix or a coupon code. */
  buttons: Map<number, string>;
}

function buttonLines(buttons: readonly TemplateButton[], values: Map<number, string>): string[] {
  const lines: string[] = [];
  let quickReplies: string[] = [];
  const flush = () => {
    if (quickReplies.length) lines.push(quickReplies.join(' '));
    quickReplies = [];
  };
  buttons.forEach((button, index) => {
    if (button.type === 'QUICK_REPLY') {
      quickReplies.push(`[${button.text}]`);
      return;
    }
    flush();
    const value = values.get(index);
    if (button.type === 'URL') {
      const url = button.urlHasVariable ? fillVariables(button.url ?? '', [value ?? '']) : button.url;
      lines.push(`[${button.text}] ${url}`);
    } else if (button.type === 'PHONE_NUMBER') lines.push(`[${button.text}] +${button.phoneNumber}`);
    else lines.push(`[${button.text}] ${value}`);
  });
  flush();
  return lines;
}

export function renderTemplate(content: TemplateContent, filled: FilledParameters): string {
  const lines = [
    filled.header,
    fillVariables(content.body.text, filled.body),
    content.footer ? `_${content.footer}_` : undefined,
    ...buttonLines(content.buttons, filled.buttons),
  ];
  return lines.filter(Boolean).join('\n');
}
