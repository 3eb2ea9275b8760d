/**
 * The reply box of a conversation (docs/inbox.md): inside the 24-hour window a text, or a file (by its
 * https link, or chosen on the computer: that form is multipart); at any time an approved template of the
 * conversation's number, chosen first (a GET that keeps the page) and then filled in. Each form carries the messageId of the one message it sends, made when the page
 * was drawn: a form sent twice sends one message.
 */
import { randomUUID } from 'node:crypto';
import type { ReplyWindow } from '../../domain/inbox/inbox-service.ts';
import type { TemplateView } from '../../domain/templates/template-view.ts';
import { needsOf } from '../campaigns/wizard-checks.ts';
import { templateKey } from '../campaigns/wizard-form.ts';
import { input, select, textarea } from '../components.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField } from '../layout.ts';
import { templatePreview } from '../template-preview.ts';

/** What the agent wrote, sent back to them with the refusal's words next to the form it came from. */
export interface ReplyDraft {
  /** The form it came from; `note` is the form of the team's notes (notes-view.ts). */
  form?: 'text' | 'media' | 'template' | 'note';
  values: Record<string, string>;
  error?: string;
}

export interface ReplyBoxOptions {
  action: string;
  csrfToken: string;
  window: ReplyWindow;
  templates: TemplateView[];
  /** The template chosen (name|language), if any. */
  chosen: string;
  /** The account's saved replies, offered above the text form. */
  savedReplies: { id: string; shortcut: string; text: string }[];
  draft: ReplyDraft;
}

const messageIdField = () => html`<input type="hidden" name="messageId" value="inbox-${randomUUID()}">`;

function formError(o: ReplyBoxOptions, form: ReplyDraft['form']): SafeHtml | string {
  return o.draft.form === form && o.draft.error
    ? html`<p class="field-error" role="alert">${o.draft.error}</p>`
    : '';
}

/**
 * A GET that reloads the page with the saved reply's text in the message box (no script needed). With the
 * page script, the text is put where the cursor is instead, and what was typed stays (the texts ride along
 * in the page, hidden).
 */
function savedReplyChooser(o: ReplyBoxOptions): SafeHtml {
  const manage = html`<a href="/app/inbox/replies">Saved replies</a>`;
  if (!o.savedReplies.length)
    return html`<p class="hint">${manage}: texts your team puts into a reply with a click.</p>`;
  return html`<form method="get" action="${o.action.replace(/\/reply$/, '')}" class="filters" data-saved-replies>
${select({ name: 'saved', label: 'Saved reply', value: '', options: o.savedReplies.map((r): [string, string] => [r.id, r.shortcut]) })}
<div class="field"><button type="submit" class="secondary">Put in the message</button></div></form>
<ul hidden data-saved-texts>${o.savedReplies.map((r) => html`<li data-id="${r.id}">${r.text}</li>`)}</ul>
<p class="hint">${manage}: add or remove them.</p>`;
}

function textForm(o: ReplyBoxOptions): SafeHtml {
  const value = o.draft.form === 'text' ? o.draft.values.message : '';
  return html`${savedReplyChooser(o)}<form method="post" action="${o.action}" class="reply" novalidate>${csrfField(o.csrfToken)}${messageIdField()}
<input type="hidden" name="kind" value="text">${formError(o, 'text')}
${textarea({ name: 'message', label: 'Message', value, rows: 3 })}
<div class="actions"><button type="submit">Send</button></div></form>`;
}

function mediaForm(o: ReplyBoxOptions): SafeHtml {
  const v = o.draft.form === 'media' ? o.draft.values : {};
  return html`<details${o.draft.form === 'media' ? html` open` : ''}><summary>Send a file</summary>
<form method="post" action="${o.action}" class="reply" enctype="multipart/form-data" novalidate>${csrfField(o.csrfToken)}${messageIdField()}
<input type="hidden" name="kind" value="media">${formError(o, 'media')}
${select({
  name: 'mediaType',
  label: 'Kind of file',
  value: v.mediaType ?? 'IMAGE',
  options: [
    ['IMAGE', 'Image'],
    ['VIDEO', 'Video'],
    ['AUDIO', 'Audio'],
    ['DOCUMENT', 'Document'],
  ],
})}
${input({ name: 'mediaUrl', label: 'Link to the file (https)', type: 'url', value: v.mediaUrl, hint: 'The network fetches the file from this address. Or choose a file below.' })}
<div class="field"><label for="f-file">File from this computer</label><input id="f-file" name="file" type="file"></div>
${input({ name: 'caption', label: 'Caption (optional)', value: v.caption })}
<div class="actions"><button type="submit">Send the file</button></div></form></details>`;
}

function templateFields(o: ReplyBoxOptions, template: TemplateView): SafeHtml {
  const needs = needsOf(template);
  const v = o.draft.form === 'template' ? o.draft.values : {};
  const header =
    needs.header === 'none'
      ? ''
      : input({
          name: 'header',
          label:
            needs.header === 'TEXT'
              ? 'Header value'
              : `Link to the header's ${needs.header.toLowerCase()} (https)`,
          value: v.header,
        });
  const values = Array.from({ length: needs.placeholders }, (_, i) =>
    input({ name: `p${i + 1}`, label: `Value of {{${i + 1}}}`, value: v[`p${i + 1}`] }),
  );
  const buttons = needs.linkButtons.map((b) =>
    input({
      name: `b${b.index}`,
      label: `End of the link of the button "${b.text}"`,
      value: v[`b${b.index}`],
      hint: `The button opens ${b.url}, with {{1}} replaced by this text.`,
    }),
  );
  return html`${templatePreview(template)}
<form method="post" action="${o.action}" class="reply" novalidate>${csrfField(o.csrfToken)}${messageIdField()}
<input type="hidden" name="kind" value="template"><input type="hidden" name="template" value="${o.chosen}">${formError(o, 'template')}
${header}${values}${buttons}
<div class="actions"><button type="submit">Send the template</button></div></form>`;
}

function templateForm(o: ReplyBoxOptions): SafeHtml {
  if (!o.templates.length)
    return html`<p>This number has no approved template. <a href="/app/templates">Create one</a>; the network reviews it first.</p>`;
  const template = o.templates.find((t) => templateKey(t.name, t.language) === o.chosen);
  return html`<form method="get" action="${o.action.replace(/\/reply$/, '')}" class="filters">
${select({ name: 'template', label: 'Approved template', value: o.chosen, options: o.templates.map((t) => [templateKey(t.name, t.language), `${t.name} · ${t.language}`]) })}
<div class="field"><button type="submit" class="secondary">Choose</button></div></form>
${template ? templateFields(o, template) : ''}`;
}

/** The whole reply area, as the window allows. */
export function replyBox(o: ReplyBoxOptions): SafeHtml {
  const open = o.window.open;
  const templates = html`<section class="card" aria-labelledby="template-heading"><h3 id="template-heading">${open ? 'Or send a template' : 'Send a template'}</h3>
${open ? '' : formError(o, 'text')}${templateForm(o)}</section>`;
  if (!open)
    return html`<section aria-labelledby="reply-heading"><h2 id="reply-heading">Reply</h2>
<p class="notice">More than 24 hours passed since the customer last wrote: only an approved template can be sent until they write again.</p>
${templates}</section>`;
  return html`<section aria-labelledby="reply-heading"><h2 id="reply-heading">Reply</h2>
${textForm(o)}${mediaForm(o)}${templates}</section>`;
}
