/**
 * Flow JSON components (docs/cloud-api.md §6.4) as the HTML a phone would show, server-side: every input has a
 * label, helper texts are tied to their inputs, required fields say so, actions become real buttons.
 * Bindings (`${data.x}`, `${form.x}`) in texts become spans the page script fills in as data arrives;
 * a `data-source` bound to screen data is drawn from the screen's `__example__`, as Meta's preview does.
 */
import { escapeHtml } from '../../escape-html.ts';

type Json = Record<string, unknown>;

export interface ScreenContext {
  /** Unique per screen, for element ids. */
  prefix: string;
  /** The screen's example data (`data.<key>.__example__`). */
  examples: Json;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const BINDING = /\$\{(data|form)\.([A-Za-z0-9_]+)\}/g;

/** Text with its bindings as placeholders the page script fills in (`data-bind="data.email"`). */
function boundText(value: unknown): string {
  if (Array.isArray(value)) return value.map(boundText).join('<br>');
  const text = String(value ?? '');
  let out = '';
  let last = 0;
  for (const match of text.matchAll(BINDING)) {
    out += escapeHtml(text.slice(last, match.index));
    out += `<span data-bind="${match[1]}.${match[2]}"></span>`;
    last = match.index + match[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

/** Options of a selection component: inline, or bound to screen data (then its example). */
function options(component: Json, ctx: ScreenContext): { id: string; title: string; description?: string }[] {
  let source = component['data-source'];
  if (typeof source === 'string') {
    const key = /^\$\{data\.([A-Za-z0-9_]+)\}$/.exec(source)?.[1];
    source = key ? ctx.examples[key] : [];
  }
  if (!Array.isArray(source)) return [];
  return source.filter(isObject).map((o) => ({
    id: String(o.id ?? ''),
    title: String(o.title ?? o.id ?? ''),
    ...(o.description !== undefined ? { description: String(o.description) } : {}),
  }));
}

function actionAttr(action: unknown): string {
  return isObject(action) ? ` data-action="${escapeHtml(JSON.stringify(action))}"` : '';
}

function helper(component: Json, id: string): { attr: string; html: string } {
  const text = component['helper-text'];
  if (typeof text !== 'string') return { attr: '', html: '' };
  return {
    attr: ` aria-describedby="${id}-help"`,
    html: `<p class="helper" id="${id}-help">${boundText(text)}</p>`,
  };
}

function labelText(component: Json): string {
  const optional = component.required === true ? '' : ' <span class="optional">(optional)</span>';
  return `${boundText(component.label ?? component.name)}${optional}`;
}

const INPUT_TYPES: Record<string, string> = {
  text: 'text',
  number: 'number',
  email: 'email',
  password: 'password',
  passcode: 'password',
  phone: 'tel',
};

function choiceGroup(component: Json, ctx: ScreenContext, kind: 'radio' | 'checkbox'): string {
  const name = escapeHtml(component.name);
  const id = `${ctx.prefix}-${name}`;
  const items = options(component, ctx)
    .map((o, i) => {
      const optionId = `${id}-${i}`;
      const description = o.description
        ? `<span class="description">${escapeHtml(o.description)}</span>`
        : '';
      const required = kind === 'radio' && component.required === true ? ' required' : '';
      return `<div class="choice"><input type="${kind}" id="${optionId}" name="${name}" value="${escapeHtml(o.id)}"${required}><label for="${optionId}">${escapeHtml(o.title)}${description}</label></div>`;
    })
    .join('');
  const min =
    kind === 'checkbox'
      ? Number(component['min-selected-items'] ?? (component.required === true ? 1 : 0))
      : 0;
  const max = kind === 'checkbox' ? Number(component['max-selected-items'] ?? 0) : 0;
  const limits = kind === 'checkbox' ? ` data-min="${min}" data-max="${max}" data-group="${name}"` : '';
  const description = component.description
    ? `<p class="helper">${boundText(component.description)}</p>`
    : '';
  return `<fieldset class="group"${limits}><legend>${labelText(component)}</legend>${description}${items}</fieldset>`;
}

function textInput(component: Json, id: string, name: string, required: string): string {
  const help = helper(component, id);
  const inputType = INPUT_TYPES[String(component['input-type'] ?? 'text')] ?? 'text';
  const min = component['min-chars'] !== undefined ? ` minlength="${Number(component['min-chars'])}"` : '';
  const max = component['max-chars'] !== undefined ? ` maxlength="${Number(component['max-chars'])}"` : '';
  const value =
    component['init-value'] !== undefined ? ` value="${escapeHtml(component['init-value'])}"` : '';
  return `<div class="field"><label for="${id}">${labelText(component)}</label><input id="${id}" name="${name}" type="${inputType}"${required}${min}${max}${value}${help.attr}>${help.html}</div>`;
}

function image(component: Json): string {
  const src =
    typeof component.src === 'string' && /^[A-Za-z0-9+/=\s]+$/.test(component.src) ? component.src : '';
  const alt = escapeHtml(component['alt-text'] ?? '');
  return src ? `<img class="image" alt="${alt}" src="data:image/png;base64,${src.replace(/\s/g, '')}">` : '';
}

function navigationList(component: Json): string {
  const items = Array.isArray(component['list-items']) ? component['list-items'].filter(isObject) : [];
  const rows = items
    .map((item) => {
      const content = isObject(item['main-content']) ? item['main-content'] : item;
      const action = item['on-click-action'] ?? component['on-click-action'];
      return `<li><button type="button" class="nav-item"${actionAttr(action)}>${boundText(content.title)}${content.description ? `<span class="description">${boundText(content.description)}</span>` : ''}</button></li>`;
    })
    .join('');
  return `<ul class="nav-list" aria-label="${escapeHtml(component.label ?? 'Choices')}">${rows}</ul>`;
}

function dropdown(component: Json, ctx: ScreenContext, id: string, name: string, required: string): string {
  const items = options(component, ctx)
    .map((o) => `<option value="${escapeHtml(o.id)}">${escapeHtml(o.title)}</option>`)
    .join('');
  return `<div class="field"><label for="${id}">${labelText(component)}</label><select id="${id}" name="${name}"${required}><option value="">Select</option>${items}</select></div>`;
}

function footer(component: Json): string {
  const caption = component['center-caption'] ?? component['left-caption'] ?? component['right-caption'];
  return `<div class="footer">${caption !== undefined ? `<p class="caption">${boundText(caption)}</p>` : ''}<button type="submit" class="footer-button"${actionAttr(component['on-click-action'])}>${boundText(component.label)}</button></div>`;
}

export function renderComponent(component: Json, ctx: ScreenContext): string {
  const type = String(component.type);
  const name = escapeHtml(component.name ?? '');
  const id = `${ctx.prefix}-${name}`;
  const required = component.required === true ? ' required aria-required="true"' : '';
  switch (type) {
    case 'TextHeading':
      return `<h2 class="heading">${boundText(component.text)}</h2>`;
    case 'TextSubheading':
      return `<h3 class="subheading">${boundText(component.text)}</h3>`;
    case 'TextBody':
    case 'RichText':
      return `<p class="body-text">${boundText(component.text)}</p>`;
    case 'TextCaption':
      return `<p class="caption">${boundText(component.text)}</p>`;
    case 'TextInput':
      return textInput(component, id, name, required);
    case 'TextArea': {
      const help = helper(component, id);
      const max =
        component['max-length'] !== undefined ? ` maxlength="${Number(component['max-length'])}"` : '';
      return `<div class="field"><label for="${id}">${labelText(component)}</label><textarea id="${id}" name="${name}" rows="3"${required}${max}${help.attr}></textarea>${help.html}</div>`;
    }
    case 'DatePicker':
    case 'CalendarPicker': {
      const help = helper(component, id);
      return `<div class="field"><label for="${id}">${labelText(component)}</label><input id="${id}" name="${name}" type="date"${required}${help.attr}>${help.html}</div>`;
    }
    case 'Dropdown':
      return dropdown(component, ctx, id, name, required);
    case 'RadioButtonsGroup':
      return choiceGroup(component, ctx, 'radio');
    case 'CheckboxGroup':
    case 'ChipsSelector':
      return choiceGroup(component, ctx, 'checkbox');
    case 'OptIn':
      return `<div class="choice optin"><input type="checkbox" id="${id}" name="${name}" value="true" data-optin${required}><label for="${id}">${labelText(component)}</label>${component['on-click-action'] ? `<button type="button" class="link"${actionAttr(component['on-click-action'])}>Read more</button>` : ''}</div>`;
    case 'EmbeddedLink':
      return `<p><button type="button" class="link"${actionAttr(component['on-click-action'])}>${boundText(component.text)}</button></p>`;
    case 'Image':
      return image(component);
    case 'NavigationList':
      return navigationList(component);
    case 'Form':
      return renderChildren(component.children, ctx);
    case 'If':
      // A preview cannot know the user's answers in advance: it shows the branch taken when the condition holds.
      return renderChildren(component.then, ctx);
    case 'Switch': {
      const cases = isObject(component.cases) ? Object.values(component.cases) : [];
      return renderChildren(cases[0], ctx);
    }
    case 'Footer':
      return footer(component);
    default:
      return `<p class="unsupported">(${escapeHtml(type)} is not drawn in this preview)</p>`;
  }
}

export function renderChildren(children: unknown, ctx: ScreenContext): string {
  if (!Array.isArray(children)) return '';
  return children
    .filter(isObject)
    .map((c) => renderComponent(c, ctx))
    .join('');
}
