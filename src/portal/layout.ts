/** The page frame: head, skip link, navigation (signed in), the page heading and any notice. */

import type { SessionContext } from '../domain/ports/portal.ts';
import { canOpen } from '../domain/roles.ts';
import { CSRF_FIELD } from './auth/csrf.ts';
import { html, type SafeHtml } from './html.ts';

export type Section =
  | 'dashboard'
  | 'profile'
  | 'inbox'
  | 'settings'
  | 'team'
  | 'messages'
  | 'contacts'
  | 'templates'
  | 'campaigns'
  | 'flows'
  | 'webhooks';

const NAV: [Section, string][] = [
  ['dashboard', 'Dashboard'],
  ['inbox', 'Inbox'],
  ['settings', 'Settings'],
  ['messages', 'Messages'],
  ['contacts', 'Contacts'],
  ['templates', 'Templates'],
  ['campaigns', 'Campaigns'],
  ['flows', 'Flows'],
  ['webhooks', 'Webhooks'],
  ['team', 'Team'],
];

export interface PageOptions {
  title: string;
  body: SafeHtml;
  session?: SessionContext | null;
  section?: Section;
  /** A short confirmation of what just happened (role=status). */
  notice?: string | undefined;
  /** What went wrong with the whole request (role=alert). */
  error?: string | undefined;
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}

/** The Inbox link's count of unread messages: seen as a badge, read out as words. */
function unreadBadge(unread: number): SafeHtml | string {
  if (unread <= 0) return '';
  // The link's name is read "Inbox 4 unread"; the badge itself is not read twice.
  return html`<span class="visually-hidden"> ${String(unread)} unread</span><span class="count" aria-hidden="true">${unread > 99 ? '99+' : String(unread)}</span>`;
}

function header(session: SessionContext, section: Section | undefined): SafeHtml {
  return html`<header class="top">
  <a class="brand" href="/app/dashboard">Switchboard</a>
  <nav aria-label="Portal"><ul>${NAV.filter(([key]) => canOpen(session.role, key)).map(
    ([key, label]) =>
      html`<li><a href="/app/${key}"${key === section ? html` aria-current="page"` : ''}>${label}${
        key === 'inbox'
          ? html`<span data-menu-part="inbox-unread">${unreadBadge(session.inboxUnread ?? 0)}</span>`
          : ''
      }</a></li>`,
  )}</ul></nav>
  <div class="who"><span class="account">${session.accountName}</span> <a class="profile-link" href="/app/profile"${section === 'profile' ? html` aria-current="page"` : ''}>Your profile</a>
    <form method="post" action="/app/sign-out">${csrfField(session.csrfToken)}<button type="submit" class="link-button">Sign out</button></form>
  </div>
</header>`;
}

/**
 * The page's problem, at the top: the one it was given, or, for a form that came back with a message at
 * one of its fields, a sentence that says so; with a link to the first such field either way.
 */
function problemSummary(error: string | undefined, body: SafeHtml): SafeHtml | '' {
  const first = /class="field-error" id="f-([\w-]+)-error"/.exec(body.value)?.[1];
  if (!error && !first) return '';
  const words = error ?? 'This form has a problem: see the message next to the field.';
  const link = first ? html` <a href="#f-${first}">Go to the field</a>` : '';
  return html`<div class="alert" role="alert"><p>${words}${link}</p></div>`;
}

export function page(options: PageOptions): string {
  const { title, body, session, section, notice, error } = options;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Switchboard</title>
<link rel="icon" href="/app/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/app/assets/portal.css">
<script type="module" src="/app/assets/portal.js"></script>
</head>
<body${session?.timeZone ? html` data-time-zone="${session.timeZone}"` : ''}>
<a class="skip" href="#main">Skip to content</a>
${session ? header(session, section) : html`<header class="top"><span class="brand">Switchboard</span></header>`}
<main id="main" tabindex="-1">
<h1>${title}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${problemSummary(error, body)}
${body}
</main>
</body>
</html>
`.value;
}
