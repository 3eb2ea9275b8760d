/**
 * A template as the user would read it: header, body and footer with the example values in place of
 * {{1}}, {{2}}... and the button labels. Built from the stored network-shape components.
 */
import type { TemplateView } from '../domain/templates/template-view.ts';
import { html, type SafeHtml } from './html.ts';

type Component = {
  type?: string;
  format?: string;
  text?: string;
  example?: Record<string, unknown>;
  buttons?: { type?: string; text?: string }[];
  add_security_recommendation?: boolean;
  code_expiration_minutes?: number;
  cards?: { components?: Component[] }[];
};

/**
 * An authentication template's texts are the network's (docs/templates.md §8); the preview writes them in
 * English with a sample code.
 */
function authenticationTexts(body: Component | undefined, footer: Component | undefined) {
  const security = body?.add_security_recommendation ? ' For your security, do not share this code.' : '';
  const minutes = footer?.code_expiration_minutes;
  return {
    body: `123456 is your verification code.${security}`,
    footer: minutes ? `This code expires in ${minutes} minutes.` : undefined,
  };
}

function buttonLabel(button: { type?: string; text?: string }): string {
  return button.text ?? (button.type === 'OTP' ? 'Copy code' : '');
}

function fill(text: string, examples: unknown): string {
  const values = Array.isArray(examples) ? examples : [];
  return text.replace(/\{\{(\d+)\}\}/g, (whole, n) => {
    const value = values[Number(n) - 1];
    return typeof value === 'string' ? value : whole;
  });
}

export function templatePreview(template: TemplateView): SafeHtml {
  const components = template.components as Component[];
  const part = (type: string) => components.find((c) => c.type === type);
  const header = part('HEADER');
  const body = part('BODY');
  const footer = part('FOOTER');
  const buttons = part('BUTTONS')?.buttons ?? [];
  const headerText =
    header?.format === 'TEXT' && header.text
      ? fill(header.text, header.example?.header_text)
      : header
        ? `[${header.format?.toLowerCase() ?? 'media'} header]`
        : '';
  const bodyExamples = (body?.example?.body_text as unknown[] | undefined)?.[0];
  const auth = template.category === 'AUTHENTICATION' ? authenticationTexts(body, footer) : undefined;
  const bodyText = auth?.body ?? (body?.text ? fill(body.text, bodyExamples) : '');
  const footerText = auth?.footer ?? footer?.text;
  const cards = part('CAROUSEL')?.cards ?? [];
  const cardButtons = cards[0]?.components?.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
  return html`<div class="preview">${headerText ? html`<p class="header">${headerText}</p>` : ''}${bodyText}${footerText ? html`<p class="footer">${footerText}</p>` : ''}</div>${
    buttons.length ? html`<p class="hint">Buttons: ${buttons.map(buttonLabel).join(' · ')}</p>` : ''
  }${
    cards.length
      ? html`<p class="hint">Carousel of ${cards.length} cards, each with buttons: ${cardButtons.map(buttonLabel).join(' · ')}</p>`
      : ''
  }`;
}
