/**
 * What the template form adds to a text template when it creates one (docs/portal.md, "Templates"): a
 * header of any kind (text, or an image, video or document chosen from the computer and uploaded as the
 * API's `POST /api/v1/template/upload/file` does) and up to three buttons (quick reply, link, call). The
 * page script draws a WhatsApp-style preview as the form is filled (portal.js `previewTemplate`).
 */
import { GatewayError } from '../../domain/errors.ts';
import type { TemplateBodyInput, TemplateButtonInput } from '../../domain/templates/template-body.ts';
import { input, select } from '../components.ts';
import { html, type SafeHtml } from '../html.ts';

export const HEADER_KINDS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export const BUTTON_ROWS = 3;

export const BUILDER_FIELDS = [
  'headerFormat',
  ...Array.from({ length: BUTTON_ROWS }, (_, i) => [
    `button${i + 1}Type`,
    `button${i + 1}Text`,
    `button${i + 1}Value`,
    `button${i + 1}Example`,
  ]).flat(),
];

/** The form's values by input name. */
export type Values = Record<string, string>;

/** The API's field of a button (`component.buttons[1].url`) → this form's input (`button2Value`). */
export function builderFieldOf(apiField: string): string | undefined {
  const button = /^component\.buttons(?:\[(\d+)\](?:\.(\w+))?)?/.exec(apiField);
  if (button) {
    const row = Number(button[1] ?? 0) + 1;
    const part = button[2];
    if (part === 'example') return `button${row}Example`;
    return part === 'type'
      ? `button${row}Type`
      : part === 'text' || !part
        ? `button${row}Text`
        : `button${row}Value`;
  }
  if (apiField === 'component.header.example' || apiField === 'component.header.format') return 'headerFile';
  return undefined;
}

const BUTTON_PARTS: Record<string, string> = {
  text: 'label',
  url: 'link',
  phoneNumber: 'number',
  example: 'example link',
};

/**
 * A refusal in the words of this form: the API names a button `component.buttons[0].text`, counting from
 * 0; the form shows "Button 1's label", as its rows are titled.
 */
export function inBuilderWords(message: string): string {
  return message.replace(/`component\.buttons\[(\d+)\](?:\.(\w+))?`/g, (_, index: string, part?: string) => {
    const button = `Button ${Number(index) + 1}`;
    return part ? `${button}'s ${BUTTON_PARTS[part] ?? part}` : button;
  });
}

function buttonsOf(values: Values): TemplateButtonInput[] {
  const buttons: TemplateButtonInput[] = [];
  for (let row = 1; row <= BUTTON_ROWS; row++) {
    const type = values[`button${row}Type`] ?? '';
    if (!type) continue;
    const text = values[`button${row}Text`] ?? '';
    const value = (values[`button${row}Value`] ?? '').trim();
    // A link or number typed for a quick reply would be dropped without a word: said at its field instead.
    if (type === 'QUICK_REPLY' && value) {
      const at = `component.buttons[${buttons.length}].url`;
      throw new GatewayError(
        'invalid_request',
        `\`${at}\`: a quick reply button has no link or number; leave it empty, or choose a link or a call as the kind`,
        { field: at },
      );
    }
    // A link with a variable needs a whole example link for the network's review; a fixed one none.
    const example = (values[`button${row}Example`] ?? '').trim();
    buttons.push({
      type,
      text,
      ...(type === 'URL' ? { url: value } : type === 'PHONE_NUMBER' ? { phoneNumber: value } : {}),
      ...(type === 'URL' && example ? { example } : {}),
    });
  }
  return buttons;
}

/**
 * The text template's request with the builder's parts: the media header (by the handle of the file just
 * uploaded) in place of the text one, and the buttons.
 */
export function withBuilderParts(
  body: TemplateBodyInput,
  values: Values,
  handle: string | undefined,
): TemplateBodyInput {
  const format = values.headerFormat || 'TEXT';
  const component = { ...body.component };
  if (format !== 'TEXT') {
    component.header = { format, ...(handle ? { example: handle } : {}) };
  }
  const buttons = buttonsOf(values);
  if (buttons.length) component.buttons = buttons;
  return { ...body, component };
}

function buttonRow(values: Values, e: Values, row: number): SafeHtml {
  const name = (part: string) => `button${row}${part}`;
  return html`<fieldset class="button-row"><legend>Button ${row}</legend>
${select({
  name: name('Type'),
  label: 'Kind',
  value: values[name('Type')] ?? '',
  error: e[name('Type')],
  options: [
    ['', 'None'],
    ['QUICK_REPLY', 'Quick reply'],
    ['URL', 'Link'],
    ['PHONE_NUMBER', 'Call'],
  ],
})}
${input({ name: name('Text'), label: 'Label', value: values[name('Text')], error: e[name('Text')], hint: 'At most 25 characters.' })}
${input({ name: name('Value'), label: 'Link or number', value: values[name('Value')], error: e[name('Value')], hint: 'A link: https://…, which may end with {{1}} to add a different ending to each message; a call: the number with its country code.' })}
${input({ name: name('Example'), label: 'Example link (for a link ending with {{1}})', value: values[name('Example')], error: e[name('Example')], hint: 'The whole link with an example ending, e.g. https://shop.example.com/o/4521, shown to the network at review.' })}
</fieldset>`;
}

/** The header's kind and file, before the header text the text template form already has. */
export function headerKindFields(values: Values, e: Values): SafeHtml {
  return html`${select({
    name: 'headerFormat',
    label: 'Header kind',
    value: values.headerFormat ?? 'TEXT',
    error: e.headerFormat,
    options: [
      ['TEXT', 'Text (or none)'],
      ['IMAGE', 'Image'],
      ['VIDEO', 'Video'],
      ['DOCUMENT', 'Document'],
    ],
  })}
<div class="field${e.headerFile ? ' has-error' : ''}"><label for="f-headerFile">Header file (for an image, video or document header)</label>
<p class="hint" id="f-headerFile-hint">JPEG or PNG, MP4, or PDF: the network shows it as the template's example. Chosen again if the form comes back with a problem.</p>
${e.headerFile ? html`<p class="field-error" id="f-headerFile-error">${e.headerFile}</p>` : ''}
<input id="f-headerFile" name="headerFile" type="file" accept="image/jpeg,image/png,video/mp4,application/pdf" aria-describedby="f-headerFile-hint${e.headerFile ? ' f-headerFile-error' : ''}"></div>`;
}

export function buttonFields(values: Values, e: Values): SafeHtml {
  return html`<h3>Buttons (optional)</h3>
<p class="hint">Quick replies together, before or after the links and calls.</p>
${Array.from({ length: BUTTON_ROWS }, (_, i) => buttonRow(values, e, i + 1))}`;
}

/** The preview the page script fills as the form changes; empty without the script. */
// Not a live region: read out on every keystroke, it would drown what is being typed; it is there to see.
export const livePreview = html`<div class="live-preview" data-template-preview hidden><h3>Preview</h3><div class="preview"></div></div>`;
