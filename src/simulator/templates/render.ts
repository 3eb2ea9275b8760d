/**
 * What a person sees for a template message (the phone's `rendered` text), in the style of render.ts for
 * interactive messages: the header in bold (or `[image: <link>]` for a media header), the body with its
 * variables filled in, the footer in italics, quick replies (and an OTP button, with its autofill
 * button when it has one) in brackets on one line, and each other button on a line of its own with its
 * target. A carousel's cards follow the body, one line each:
 * `[card 1] [image: <link>] <card body> [Quick reply] [Link] <url>`.
 */
import type { FilledButton, FilledCard, FilledHeader, FilledTemplate } from './filled-template.ts';

function headerLine(header: FilledHeader | undefined): string | undefined {
  if (!header) return undefined;
  if (header.type === 'text') return `*${header.text}*`;
  if (header.type === 'location') {
    const place = [header.name, header.address].filter(Boolean).join(', ');
    return `📍 ${place ? `${place} ` : ''}(${header.latitude}, ${header.longitude})`;
  }
  const label = header.type === 'document' && header.filename ? header.filename : (header.link ?? header.id);
  return `[${header.type}: ${label}]`;
}

/** A button with its target, or undefined for one shown as a label only (a quick reply, an OTP button). */
function targetOf(button: FilledButton): string | undefined {
  if (button.type === 'url') return `[${button.text}] ${button.url}`;
  if (button.type === 'phone_number') return `[${button.text}] ${button.phone_number}`;
  if (button.type === 'copy_code') return `[${button.text}] ${button.code}`;
  return undefined;
}

function labelsOf(button: FilledButton): string[] {
  if (button.type === 'otp' && button.autofill_text) return [`[${button.text}]`, `[${button.autofill_text}]`];
  return [`[${button.text}]`];
}

function buttonLines(buttons: readonly FilledButton[]): string[] {
  const lines: string[] = [];
  let labels: string[] = [];
  const flush = () => {
    if (labels.length) lines.push(labels.join(' '));
    labels = [];
  };
  for (const button of buttons) {
    const target = targetOf(button);
    if (target === undefined) labels.push(...labelsOf(button));
    else {
      flush();
      lines.push(target);
    }
  }
  flush();
  return lines;
}

/** One line per card: its line breaks become spaces. */
function cardLine(card: FilledCard): string {
  const buttons = card.buttons.map((b) => targetOf(b) ?? labelsOf(b).join(' '));
  const parts = [`[card ${card.index + 1}]`, headerLine(card.header), card.body?.replace(/\s*\n\s*/g, ' ')];
  return [...parts, ...buttons].filter(Boolean).join(' ');
}

export function renderTemplate(template: FilledTemplate): string {
  const lines = [
    headerLine(template.header),
    template.body,
    template.footer ? `_${template.footer}_` : undefined,
    ...buttonLines(template.buttons),
    ...(template.cards ?? []).map(cardLine),
  ];
  return lines.filter(Boolean).join('\n');
}
