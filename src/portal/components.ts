/** Small pieces every page uses: labelled inputs with their errors, times, status badges. */
import { html, type SafeHtml } from './html.ts';

export interface InputOptions {
  name: string;
  label: string;
  value?: string;
  type?: string;
  error?: string | undefined;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  extra?: SafeHtml;
}

/** A label, an input, its hint and its error, tied together with aria-describedby. */
export function input(o: InputOptions): SafeHtml {
  const id = `f-${o.name}`;
  const described = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${o.error ? ' has-error' : ''}">
  <label for="${id}">${o.label}</label>
  ${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
  ${o.error ? html`<p class="field-error" id="${id}-error">${o.error}</p>` : ''}
  <input id="${id}" name="${o.name}" type="${o.type ?? 'text'}" value="${o.value ?? ''}"${o.required ? html` required` : ''}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''}${described ? html` aria-describedby="${described}"` : ''}${o.error ? html` aria-invalid="true"` : ''}${o.extra ?? ''}>
</div>`;
}

export function textarea(o: InputOptions & { rows?: number }): SafeHtml {
  const id = `f-${o.name}`;
  const described = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${o.error ? ' has-error' : ''}">
  <label for="${id}">${o.label}</label>
  ${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
  ${o.error ? html`<p class="field-error" id="${id}-error">${o.error}</p>` : ''}
  <textarea id="${id}" name="${o.name}" rows="${o.rows ?? 4}"${o.required ? html` required` : ''}${described ? html` aria-describedby="${described}"` : ''}${o.error ? html` aria-invalid="true"` : ''}>${o.value ?? ''}</textarea>
</div>`;
}

export function select(
  o: Omit<InputOptions, 'type'> & { options: readonly (string | [string, string])[] },
): SafeHtml {
  const id = `f-${o.name}`;
  return html`<div class="field${o.error ? ' has-error' : ''}">
  <label for="${id}">${o.label}</label>
  ${o.error ? html`<p class="field-error" id="${id}-error">${o.error}</p>` : ''}
  <select id="${id}" name="${o.name}"${o.error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${o.options.map(
    (opt) => {
      const [value, text] = typeof opt === 'string' ? [opt, opt] : opt;
      return html`<option value="${value}"${value === o.value ? html` selected` : ''}>${text}</option>`;
    },
  )}</select>
</div>`;
}

/** `2026-11-23 14:05:09 UTC` inside a <time> element. */
export function when(at: number): SafeHtml {
  const iso = new Date(at).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC</time>`;
}

export function badge(status: string): SafeHtml {
  return html`<span class="badge badge-${status.toLowerCase().replace(/[^a-z_]/g, '')}">${status}</span>`;
}

/** A value the user may want to copy, with a button that the page script enables. */
export function copyable(value: string, label: string): SafeHtml {
  return html`<span class="copyable"><code>${value}</code> <button type="button" class="copy" data-copy="${value}" aria-label="Copy ${label}" hidden>Copy</button></span>`;
}
