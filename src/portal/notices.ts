/**
 * Confirmations after a POST + redirect travel as `?notice=<key>`; only these fixed texts are shown, so
 * the parameter cannot put words of someone else's choosing on the page.
 */
import { field } from './forms.ts';

const NOTICES = {
  welcome: 'Your account is ready. Create an API key below to start sending.',
  'password-set': 'Your password is set. Sign in with this email and password from now on.',
  'signed-out': 'You are signed out.',
  'key-created': 'The API key was created. Copy it now: it is shown only on this page, this once.',
  'role-changed': 'The role was changed: it applies from their next page.',
  'member-removed': 'The member was removed and signed out everywhere.',
  'invitation-revoked': 'The invitation was revoked: its link no longer works.',
  'key-revoked': 'The API key was revoked. Requests with it are now refused.',
  'template-created': 'The template was submitted for review; its status changes when the network decides.',
  'template-deleted': 'The template was deleted.',
  'template-edited':
    "The change was submitted for review; the template's status changes when the network decides.",
  'flow-created': 'The flow was created as a DRAFT.',
  'flow-saved': 'The draft flow was saved, and the network checked its Flow JSON again.',
  'flow-published': 'The flow was published and can now be sent.',
  'flow-deprecated': 'The flow was deprecated: it can no longer be sent.',
  'flow-deleted': 'The draft flow was deleted.',
  'webhook-created': 'The endpoint was created. Its signing secret is below.',
  'webhook-deleted': 'The endpoint and its delivery history were deleted.',
  'redelivery-queued': 'The delivery was queued to be attempted again now.',
  'webhook-saved': 'The endpoint was changed.',
  'webhook-disabled': 'The endpoint is off: nothing is delivered to it until it is turned on.',
  'webhook-enabled': 'The endpoint is on again: new events are delivered to it.',
  'webhook-test-sent': 'A test event was queued for the endpoint: its delivery is below.',
  'contact-saved': 'The contact was saved.',
  'contact-deleted': 'The contact was deleted.',
  'campaign-saved': 'The campaign was saved as a DRAFT. Start it from this page when it is ready.',
  'campaign-started': 'The campaign was started. This page follows its progress.',
  'campaign-scheduled': 'The campaign is scheduled: it starts by itself at its start time.',
  'campaign-paused': 'The campaign is paused. Nothing more is sent until it is resumed.',
  'campaign-resumed': 'The campaign goes on where it stopped.',
  'campaign-cancelled': 'The campaign was cancelled. Recipients not yet sent to are not sent to.',
  'time-zone-saved': 'Times are now shown in the time zone chosen.',
  'reply-sent': 'Your reply was sent; its ticks below follow what the network reports.',
  'conversation-assigned': 'The conversation was assigned.',
  'conversation-closed': 'The conversation is closed. It opens again by itself when the customer writes.',
  'conversation-reopened': 'The conversation is open again.',
  'saved-reply-added': 'The saved reply was added: every conversation offers it now.',
  'saved-reply-removed': 'The saved reply was removed.',
  'note-added': 'The note was added. Only your team sees it.',
} as const;

export type NoticeKey = keyof typeof NOTICES;

export function noticeOf(query: unknown): string | undefined {
  const key = field(query, 'notice', 40);
  return Object.hasOwn(NOTICES, key) ? NOTICES[key as NoticeKey] : undefined;
}
