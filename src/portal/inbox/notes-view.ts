/**
 * A conversation's notes between members (docs/inbox.md, "Notes"): the list, which the live updates
 * redraw, and the form to add one, which they leave alone (what is being typed stays).
 */
import { NOTE_LIMITS } from '../../domain/inbox/inbox-notes.ts';
import type { InboxNote } from '../../domain/ports/inbox-notes.ts';
import { textarea, when } from '../components.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField } from '../layout.ts';

export function notesList(notes: readonly InboxNote[]): SafeHtml {
  const items = notes.map(
    (n) => html`<li class="note"><p class="who">${n.author ?? 'A former member'}</p>
<p class="text">${n.text}</p><p class="meta">${when(n.createdAt)}</p></li>`,
  );
  return html`<section aria-labelledby="notes-heading" data-live-part="notes"><h2 id="notes-heading">Team notes</h2>
<p class="hint">Only the members of your account see these: they are never sent to the customer.</p>
${notes.length ? html`<ol class="notes" aria-label="Notes, oldest first">${items}</ol>` : html`<p>No notes yet.</p>`}</section>`;
}

export function noteForm(
  conversationId: string,
  csrfToken: string,
  draft: { text: string; error: string | undefined },
): SafeHtml {
  return html`<form method="post" action="/app/inbox/${conversationId}/notes" class="note-form" novalidate>${csrfField(csrfToken)}
${textarea({ name: 'note', label: 'Add a note for the team', value: draft.text, error: draft.error, rows: 2, hint: `1 to ${NOTE_LIMITS.textMax} characters; the customer never sees it.` })}
<div class="actions"><button type="submit" class="secondary">Add the note</button></div></form>`;
}
