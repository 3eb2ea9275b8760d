/**
 * /app/inbox/replies: the account's saved replies (docs/inbox.md, "Saved replies"), listed by shortcut,
 * with a form to add one and a button to remove each. A conversation's reply box offers them
 * (inbox/reply-box.ts). Refusals are shown next to the field they are about.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import {
  addSavedReply,
  listSavedReplies,
  removeSavedReply,
  SAVED_REPLY_LIMITS,
} from '../../domain/inbox/saved-replies.ts';
import type { SavedReply } from '../../domain/ports/saved-replies.ts';
import { input, textarea } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { field, param } from '../forms.ts';
import { html } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { noticeOf } from '../notices.ts';

interface Draft {
  shortcut: string;
  text: string;
  errors: Partial<Record<'shortcut' | 'text', string>>;
  error?: string;
}

function list(replies: SavedReply[], csrfToken: string) {
  if (!replies.length) return html`<p>No saved replies yet: add the answers your team writes most.</p>`;
  return html`<ul class="saved-replies">${replies.map(
    (r) => html`<li><h3>${r.shortcut}</h3><p class="saved-text">${r.text}</p>
<form method="post" action="/app/inbox/replies/${r.id}/remove">${csrfField(csrfToken)}<button type="submit" class="secondary">Remove ${r.shortcut}</button></form></li>`,
  )}</ul>`;
}

async function savedRepliesPage(
  deps: PortalDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  draft: Draft = { shortcut: '', text: '', errors: {} },
  status = 200,
) {
  const session = sessionOf(request);
  const replies = await listSavedReplies(deps.inbox.savedReplies, session.accountId);
  const { shortcutMax, textMax, perAccount } = SAVED_REPLY_LIMITS;
  const body = html`<p><a href="/app/inbox">← All conversations</a></p>
<p>Texts your team puts into a reply with a click, in any conversation. The reply can still be changed before it is sent.</p>
<section class="card" aria-labelledby="add-heading"><h2 id="add-heading">Add a saved reply</h2>
<form method="post" action="/app/inbox/replies" novalidate>${csrfField(session.csrfToken)}
${input({ name: 'shortcut', label: 'Shortcut', value: draft.shortcut, error: draft.errors.shortcut, required: true, hint: `Its name in the list: 1 to ${shortcutMax} letters, digits, - or _.` })}
${textarea({ name: 'text', label: 'Text', value: draft.text, error: draft.errors.text, required: true, rows: 4, hint: `1 to ${textMax} characters.` })}
<div class="actions"><button type="submit">Add</button></div></form></section>
<h2>Saved replies (${replies.length} of at most ${perAccount})</h2>
${list(replies, session.csrfToken)}`;
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      page({
        title: 'Saved replies',
        session,
        section: 'inbox',
        body,
        notice: noticeOf(request.query),
        error: draft.error,
      }),
    );
}

export function registerSavedReplyPages(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/inbox/replies', async (request, reply) => savedRepliesPage(deps, request, reply));

  portal.post('/inbox/replies', async (request, reply) => {
    const session = sessionOf(request);
    const shortcut = field(request.body, 'shortcut', 200);
    const text = field(request.body, 'text', 5 * SAVED_REPLY_LIMITS.textMax);
    try {
      await addSavedReply(deps.inbox.savedReplies, session.accountId, { shortcut, text }, Date.now());
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status >= 500) throw error;
      const at = error.field === 'shortcut' || error.field === 'text' ? error.field : undefined;
      const draft: Draft = at
        ? { shortcut, text, errors: { [at]: error.message } }
        : { shortcut, text, errors: {}, error: error.message };
      return savedRepliesPage(deps, request, reply, draft, error.status);
    }
    return reply.redirect('/app/inbox/replies?notice=saved-reply-added', 303);
  });

  portal.post('/inbox/replies/:id/remove', async (request, reply) => {
    const session = sessionOf(request);
    await removeSavedReply(deps.inbox.savedReplies, session.accountId, param(request.params, 'id'));
    return reply.redirect('/app/inbox/replies?notice=saved-reply-removed', 303);
  });
}
