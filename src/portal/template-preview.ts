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
};

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
  return html`<div class="preview">${headerText ? html`<p class="header">${headerText}</p>` : ''}${body?.text ? fill(body.text, bodyExamples) : ''}${footer?.text ? html`<p class="footer">${footer.text}</p>` : ''}</div>${
    buttons.length ? html`<p class="hint">Buttons: ${buttons.map((b) => b.text ?? '').join(' · ')}</p>` : ''
  }`;
}
