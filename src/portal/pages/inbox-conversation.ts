/**
 * /app/inbox/:id: one conversation (docs/inbox.md): its thread both ways, the time left in the 24-hour
 * window, who has it and whether it is open, and the reply box. Opening it leaves nothing unread; the
 * thread follows new messages and statuses live (inbox/inbox-live.ts). Another account's conversation is
 * a 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import { addNote, NOTE_LIMITS, notesOf } from '../../domain/inbox/inbox-notes.ts';
import { type InboxReply, replyInConversation } from '../../domain/inbox/inbox-reply.ts';
import {
  assignableMembers,
  assignConversation,
  conversationOf,
  type OpenedConversation,
  openConversation,
  setConversationState,
} from '../../domain/inbox/inbox-service.ts';
import { listSavedReplies, savedReplyText } from '../../domain/inbox/saved-replies.ts';
import type { Conversation } from '../../domain/ports/inbox.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import { listSendableTemplates } from '../../domain/templates/manage-templates.ts';
import type { TemplateView } from '../../domain/templates/template-view.ts';
import { userLabel } from '../../lib/user-id.ts';
import { needsOf } from '../campaigns/wizard-checks.ts';
import {
  buttonParameters,
  missingButtonValue,
  missingHeaderValue,
  templateOfKey,
} from '../campaigns/wizard-form.ts';
import { select, when } from '../components.ts';
import { optOutInWords } from '../contacts/opted-out.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { field, param } from '../forms.ts';
import { html, isolate } from '../html.ts';
import { noteForm, notesList } from '../inbox/notes-view.ts';
import { type ReplyDraft, replyBox } from '../inbox/reply-box.ts';
import { replyFile } from '../inbox/reply-form.ts';
import { threadView } from '../inbox/thread-view.ts';
import { windowWords } from '../inbox/window-words.ts';
import { csrfField, page } from '../layout.ts';
import { readFileForm } from '../multipart-form.ts';
import { noticeOf } from '../notices.ts';
import { receivedMediaLinks } from '../received-media.ts';

async function approvedTemplates(
  deps: PortalDeps,
  accountId: string,
  phone: string,
): Promise<TemplateView[]> {
  return listSendableTemplates(deps.templates, accountId, `+${phone}`);
}

function controls(
  opened: OpenedConversation,
  session: SessionContext,
  members: { id: string; email: string }[],
) {
  const c = opened.conversation;
  return html`<div class="actions inbox-controls">
<form method="post" action="/app/inbox/${c.id}/assign" class="filters">${csrfField(session.csrfToken)}
${select({ name: 'assignee', label: 'Assigned to', value: c.assigneeId ?? '', options: [['', 'Nobody'], ...members.map((m): [string, string] => [m.id, m.id === session.userId ? `${m.email} (me)` : m.email])] })}
<div class="field"><button type="submit" class="secondary">Assign</button></div></form>
<form method="post" action="/app/inbox/${c.id}/state">${csrfField(session.csrfToken)}<input type="hidden" name="state" value="${c.state === 'open' ? 'closed' : 'open'}">
<button type="submit" class="secondary">${c.state === 'open' ? 'Close the conversation' : 'Reopen the conversation'}</button></form></div>`;
}

async function conversationPage(
  deps: PortalDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  draft: ReplyDraft = { values: {} },
  status = 200,
) {
  const session = sessionOf(request);
  const id = param(request.params, 'id');
  const opened = await openConversation(deps.inbox, session.accountId, id);
  const c = opened.conversation;
  // Read now: the navigation's count was taken before this page opened the conversation.
  if (c.state === 'open' && session.inboxUnread)
    session.inboxUnread = Math.max(0, session.inboxUnread - c.unread);
  const received = opened.entries.flatMap((e) => (e.direction === 'in' ? [e.message] : []));
  const [copies, members, templates, savedReplies, saved, notes, optOut] = await Promise.all([
    receivedMediaLinks(deps.media, session.accountId, received),
    assignableMembers(deps.inbox, session.accountId),
    approvedTemplates(deps, session.accountId, c.businessPhone),
    listSavedReplies(deps.inbox.savedReplies, session.accountId),
    savedReplyText(deps.inbox.savedReplies, session.accountId, field(request.query, 'saved', 64)),
    notesOf(deps.inbox, session.accountId, c),
    deps.repos.optOuts.find(session.accountId, c.businessPhone, c.userPhone),
  ]);
  // A saved reply chosen above the form is put in the message box, unless a refused reply is shown there.
  if (saved !== undefined && !draft.form) draft = { form: 'text', values: { message: saved } };
  const customer = c.profileName
    ? `${isolate(c.profileName)} (${userLabel(c.userPhone)})`
    : userLabel(c.userPhone);
  const chosen = draft.values.template ?? field(request.query, 'template', 600);
  const body = html`<p><a href="/app/inbox">← All conversations</a></p>
<div data-live-stream="/app/inbox/${c.id}/live" data-live-page="/app/inbox/${c.id}">
<dl class="facts" data-live-part="facts"><dt>Number</dt><dd>+${c.businessPhone}</dd>
<dt>24-hour window</dt><dd>${windowWords(opened.window, Date.now())}</dd>
<dt>State</dt><dd>${c.state === 'open' ? 'Open' : 'Closed'}</dd>${
    optOut
      ? html`<dt>Marketing</dt><dd>Opted out on ${when(optOut.at)}: ${optOutInWords(optOut)}. Marketing templates are not sent to them.</dd>`
      : ''
  }</dl>
<div data-live-part="controls">${controls(opened, session, members)}</div>
<h2>Messages</h2>
<div data-live-part="thread">${threadView(opened.entries, { accountId: session.accountId, copies, customer })}</div>
${notesList(notes)}
${noteForm(c.id, session.csrfToken, { text: draft.form === 'note' ? (draft.values.note ?? '') : '', error: draft.form === 'note' ? draft.error : undefined })}
<div data-live-part="reply" data-live-key="${opened.window.open ? 'open' : 'closed'}">${replyBox({ action: `/app/inbox/${c.id}/reply`, csrfToken: session.csrfToken, window: opened.window, templates, chosen, draft, savedReplies })}</div></div>`;
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(page({ title: customer, session, section: 'inbox', body, notice: noticeOf(request.query) }));
}

/** The reply the form describes; a template's values are read for as many placeholders as it has. */
async function replyOf(
  deps: PortalDeps,
  accountId: string,
  conversation: Conversation,
  body: unknown,
  mediaId?: string,
): Promise<InboxReply> {
  const kind = field(body, 'kind', 10);
  if (kind === 'text') return { kind, message: field(body, 'message', 5000) };
  if (kind === 'media')
    return {
      kind,
      mediaType: field(body, 'mediaType', 20),
      caption: field(body, 'caption', 1100),
      ...(mediaId ? { mediaId } : { mediaUrl: field(body, 'mediaUrl', 3000) }),
    };
  if (kind !== 'template')
    throw new GatewayError('invalid_request', '`kind` must be text, media or template', { field: 'kind' });
  const key = templateOfKey(field(body, 'template', 600));
  const template = (await approvedTemplates(deps, accountId, conversation.businessPhone)).find(
    (t) => t.name === key?.name && t.language === key.language,
  );
  if (!template)
    throw new GatewayError(
      'invalid_request',
      '`template` must be one of the approved templates of this number',
      { field: 'template' },
    );
  const needs = needsOf(template);
  const parameters = Array.from({ length: needs.placeholders }, (_, i) =>
    field(body, `p${i + 1}`, 1100).trim(),
  );
  const header = field(body, 'header', 3000).trim();
  const noHeader = missingHeaderValue(needs, header);
  if (noHeader) throw noHeader;
  const buttonValue = (index: number) => field(body, `b${index}`, 2000);
  const noButton = missingButtonValue(needs, buttonValue, () => 'template');
  if (noButton) throw noButton;
  const buttons = buttonParameters(needs, buttonValue);
  return {
    kind,
    name: template.name,
    language: template.language,
    parameters,
    ...(buttons.length ? { buttons } : {}),
    ...(needs.header === 'none' || !header
      ? {}
      : {
          header:
            needs.header === 'TEXT'
              ? { type: 'TEXT', parameter: header }
              : { type: needs.header, mediaUrl: header },
        }),
  };
}

function draftOf(body: unknown): ReplyDraft {
  const values: Record<string, string> = {};
  for (const name of ['message', 'mediaType', 'mediaUrl', 'caption', 'template', 'header'])
    values[name] = field(body, name, 5000);
  for (let i = 1; i <= 20; i++) values[`p${i}`] = field(body, `p${i}`, 1100);
  for (let i = 0; i < 10; i++) values[`b${i}`] = field(body, `b${i}`, 2000);
  const kind = field(body, 'kind', 10);
  return { form: kind === 'media' || kind === 'template' ? kind : 'text', values };
}

/** Adds a note for the team (inbox/notes-view.ts); a refused one is shown next to its field. */
function registerNoteRoute(portal: FastifyInstance, deps: PortalDeps): void {
  portal.post('/inbox/:id/notes', async (request, reply) => {
    const session = sessionOf(request);
    const id = param(request.params, 'id');
    const text = field(request.body, 'note', 5 * NOTE_LIMITS.textMax);
    try {
      await addNote(deps.inbox, session.accountId, id, session.userId, text, Date.now());
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status !== 400) throw error;
      const draft: ReplyDraft = { form: 'note', values: { note: text }, error: error.message };
      return conversationPage(deps, request, reply, draft, 400);
    }
    return reply.redirect(`/app/inbox/${id}?notice=note-added`, 303);
  });
}

export function registerConversationPages(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/inbox/:id', async (request, reply) => conversationPage(deps, request, reply));

  portal.post('/inbox/:id/reply', { config: { portalMultipart: true } }, async (request, reply) => {
    const session = sessionOf(request);
    const id = param(request.params, 'id');
    const conversation = await conversationOf(deps.inbox, session.accountId, id);
    let body: unknown = request.body;
    try {
      const form = await readFileForm(
        request,
        session.csrfToken,
        replyFile(deps, session.accountId, conversation),
      );
      body = form.values;
      if (form.fileError) throw form.fileError;
      const answer = await replyOf(deps, session.accountId, conversation, body, form.file);
      await replyInConversation(
        deps.inbox,
        session.accountId,
        id,
        field(body, 'messageId', 200),
        answer,
        session.userId,
      );
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status >= 500 || error.status === 404) throw error;
      return conversationPage(deps, request, reply, { ...draftOf(body), error: error.message }, error.status);
    }
    return reply.redirect(`/app/inbox/${id}?notice=reply-sent`, 303);
  });

  registerNoteRoute(portal, deps);

  portal.post('/inbox/:id/assign', async (request, reply) => {
    const session = sessionOf(request);
    const id = param(request.params, 'id');
    await assignConversation(deps.inbox, session.accountId, id, field(request.body, 'assignee', 100));
    return reply.redirect(`/app/inbox/${id}?notice=conversation-assigned`, 303);
  });

  portal.post('/inbox/:id/state', async (request, reply) => {
    const session = sessionOf(request);
    const id = param(request.params, 'id');
    const state = field(request.body, 'state', 10);
    await setConversationState(deps.inbox, session.accountId, id, state);
    return reply.redirect(
      `/app/inbox/${id}?notice=conversation-${state === 'open' ? 'reopened' : 'closed'}`,
      303,
    );
  });
}
