// @ts-check
// The template form's live preview (src/portal/templates/template-builder.ts), a module of portal.js.
// Progressive enhancement only, like all of the page script.

/**
 * The template form's preview, drawn as the form is filled (src/portal/templates/template-builder.ts): the
 * header (its text, or the chosen file's picture or name), the body with the examples in place of {{1}},
 * {{2}}…, the footer, and the buttons under the bubble. Built from text nodes only.
 * @param {HTMLFormElement} form
 */
export function previewTemplate(form) {
  const holder = form.querySelector('[data-template-preview]');
  const bubble = holder?.querySelector('.preview');
  if (!(holder instanceof HTMLElement) || !(bubble instanceof HTMLElement)) return;
  holder.hidden = false;
  /** @type {{url?: string}} */
  const picture = {};
  // The header file's field only for a media header, the header text's and its example only for a text one.
  const fileField = form.querySelector('#f-headerFile')?.closest('.field');
  const textFields = ['#f-headerText', '#f-headerExample'].map((id) =>
    form.querySelector(id)?.closest('.field'),
  );
  const showHeaderFields = () => {
    const media = formValue(form, 'headerFormat') !== 'TEXT' && formValue(form, 'headerFormat') !== '';
    if (fileField instanceof HTMLElement) fileField.hidden = !media;
    for (const field of textFields) if (field instanceof HTMLElement) field.hidden = media;
  };
  const draw = () => {
    showHeaderFields();
    bubble.replaceChildren(...previewParts(form, picture.url));
  };
  form.addEventListener('input', draw);
  form.addEventListener('change', (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement && target.type === 'file') {
      if (picture.url) URL.revokeObjectURL(picture.url);
      const chosen = target.files?.[0];
      picture.url = chosen?.type.startsWith('image/') ? URL.createObjectURL(chosen) : undefined;
    }
    draw();
  });
  draw();
}

/**
 * @param {HTMLFormElement} form
 * @param {string} name
 */
function formValue(form, name) {
  const element = form.elements.namedItem(name);
  return element instanceof HTMLInputElement ||
    element instanceof HTMLTextAreaElement ||
    element instanceof HTMLSelectElement
    ? element.value
    : '';
}

/**
 * @param {string} text
 * @param {string} className
 */
function paragraph(text, className) {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}

/**
 * The header of the preview: its text, the chosen picture, or the kind and name of the chosen file.
 * @param {HTMLFormElement} form
 * @param {string | undefined} picture
 * @returns {Node[]}
 */
function previewHeader(form, picture) {
  const value = (/** @type {string} */ name) => formValue(form, name);
  const format = value('headerFormat');
  if (format === 'TEXT' || format === '') {
    const text = value('headerText').trim();
    return text ? [paragraph(text.replace('{{1}}', value('headerExample') || '{{1}}'), 'header')] : [];
  }
  const file = form.querySelector('input[type=file][name=headerFile]');
  const chosen = file instanceof HTMLInputElement ? file.files?.[0] : undefined;
  if (format === 'IMAGE' && chosen && picture) {
    const img = document.createElement('img');
    img.src = picture;
    img.alt = 'The header image';
    img.className = 'header-media';
    return [img];
  }
  return [paragraph(`[${format.toLowerCase()}${chosen ? `: ${chosen.name}` : ''}]`, 'header')];
}

/**
 * @param {HTMLFormElement} form
 * @param {string | undefined} picture
 * @returns {Node[]}
 */
function previewParts(form, picture) {
  const value = (/** @type {string} */ name) => formValue(form, name);
  const examples = value('bodyExamples')
    .split(/\r?\n/)
    .map((line) => line.trim());
  const body = value('bodyText').replace(/\{\{(\d+)\}\}/g, (whole, n) => examples[Number(n) - 1] || whole);
  /** @type {Node[]} */
  const parts = [...previewHeader(form, picture), document.createTextNode(body)];
  if (value('footerText').trim()) parts.push(paragraph(value('footerText'), 'footer'));
  const buttons = [1, 2, 3]
    .filter((row) => value(`button${row}Type`) && value(`button${row}Text`).trim())
    .map((row) => {
      const li = document.createElement('li');
      li.textContent = value(`button${row}Text`);
      return li;
    });
  if (buttons.length) {
    const list = document.createElement('ul');
    list.className = 'preview-buttons';
    list.setAttribute('aria-label', 'Buttons');
    list.replaceChildren(...buttons);
    parts.push(list);
  }
  return parts;
}
