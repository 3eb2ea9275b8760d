/**
 * /app/settings: API keys (create: shown once on this very response, never stored; revoke after a
 * confirmation), the account's business numbers, the sandbox number and join code, and the virtual phone.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { findAccount } from '../../domain/accounts.ts';
import {
  API_KEY_NAME_MAX,
  createApiKey,
  findApiKey,
  listApiKeys,
  revokeApiKey,
} from '../../domain/api-keys.ts';
import { GatewayError } from '../../domain/errors.ts';
import { listNumbers } from '../../domain/numbers.ts';
import type { ApiKey } from '../../domain/ports/accounts.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import { badge, copyable, input, when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { field, param } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { flashNewKey, takeNewKey } from '../new-key-flash.ts';
import { noticeOf } from '../notices.ts';

function keysSection(session: SessionContext, keys: ApiKey[], error?: string): SafeHtml {
  return html`<section class="card" aria-labelledby="keys-heading">
<h2 id="keys-heading">API keys</h2>
<p>Send a key in the <code>apiKey</code> header of every <code>/api/v1</code> request. A key is shown once, when it is created.</p>
${
  keys.length
    ? html`<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">Prefix</th><th scope="col">Name</th><th scope="col">Created</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${keys.map(
        (k) => html`<tr>
<td data-label="Prefix"><code>${k.prefix}…</code></td><td data-label="Name">${k.name}</td>
<td data-label="Created">${when(k.createdAt)}</td>
<td data-label="State">${k.revokedAt === null ? badge('ACTIVE') : html`${badge('REVOKED')} ${when(k.revokedAt)}`}</td>
<td>${k.revokedAt === null ? html`<a href="/app/settings/keys/${k.id}/revoke">Revoke<span class="visually-hidden"> key ${k.prefix}</span></a>` : ''}</td>
</tr>`,
      )}</tbody></table></div>`
    : html`<p>No API keys yet.</p>`
}
<h3>Create a key</h3>
<form method="post" action="/app/settings/keys">
${csrfField(session.csrfToken)}
${input({ name: 'name', label: 'Key name', hint: 'What the key is for, e.g. "production server" ("portal" when left empty).', error })}
<button type="submit">Create API key</button>
</form>
</section>`;
}

async function settingsBody(
  deps: PortalDeps,
  session: SessionContext,
  extra: { newKey?: string; keyError?: string },
) {
  const [keys, numbers, account] = await Promise.all([
    listApiKeys(deps.repos.accounts, session.accountId),
    listNumbers(deps.repos.numbers, session.accountId),
    findAccount(deps.repos.accounts, session.accountId),
  ]);
  const sandbox = `+${deps.config.sandboxNumber}`;
  const joinText = `join ${account?.joinCode ?? ''}`;
  return html`${
    extra.newKey
      ? html`<div class="secret" role="status"><h2>Your new API key</h2>
<p>Copy it now: it is shown only this once and cannot be read again.</p>
<p id="new-key">${copyable(extra.newKey, 'the new API key')}</p></div>`
      : ''
  }
${keysSection(session, keys, extra.keyError)}
<section class="card" aria-labelledby="sandbox-heading">
<h2 id="sandbox-heading">Sandbox</h2>
<p>Any phone can try your integration on the shared sandbox number: it joins by sending your join code.</p>
<dl class="facts">
<dt>Sandbox number</dt><dd id="sandbox-number">${copyable(sandbox, 'the sandbox number')}</dd>
<dt>Join code</dt><dd id="join-code">${copyable(account?.joinCode ?? '', 'the join code')}</dd>
<dt>Message to send</dt><dd id="join-text">${copyable(joinText, 'the join message')}</dd>
</dl>
<p>From WhatsApp, send <strong><code>${joinText}</code></strong> to <strong>${sandbox}</strong>. Sending <code>stop</code> leaves the sandbox.</p>
${
  deps.config.network === 'simulator'
    ? html`<p>This gateway runs the network simulator: <a href="/simulator/phone">open the virtual phone</a> to join and chat without a real phone.</p>`
    : ''
}
</section>
<section class="card" aria-labelledby="numbers-heading">
<h2 id="numbers-heading">Business numbers</h2>
${
  numbers.length
    ? html`<ul>${numbers.map((n) => html`<li><code>+${n.phone}</code>, phone-number id <code>${n.phoneNumberId}</code>, added ${when(n.createdAt)}</li>`)}</ul>`
    : html`<p>No business numbers yet; the sandbox number works without one.</p>`
}
<p>Numbers are added with the command line on the gateway's machine:</p>
<pre><code>npm run cli -- numbers add --account ${session.accountId} --phone +15550783881 --phone-number-id &lt;id&gt; --token &lt;access token&gt;</code></pre>
</section>`;
}

async function show(
  deps: PortalDeps,
  reply: FastifyReply,
  session: SessionContext,
  status: number,
  notice: string | undefined,
  extra: { newKey?: string; keyError?: string },
) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      page({
        title: 'Settings',
        session,
        section: 'settings',
        notice,
        body: await settingsBody(deps, session, extra),
      }),
    );
}

async function ownKey(deps: PortalDeps, accountId: string, id: string) {
  const key = await findApiKey(deps.repos.accounts, accountId, id);
  if (!key) throw new GatewayError('not_found', 'There is no such API key in your account.');
  return key;
}

/** Revoking a key: a confirmation page, then the revocation. */
function registerKeyRevocation(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/settings/keys/:id/revoke', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownKey(deps, session.accountId, param(request.params, 'id'));
    const body = html`<section class="card">
<p>Revoke the key <code>${key.prefix}…</code> (${key.name}), created ${when(key.createdAt)}? Every request that uses it will be refused with 401. This cannot be undone.</p>
<div class="actions">
<form method="post" action="/app/settings/keys/${key.id}/revoke">${csrfField(session.csrfToken)}<button type="submit" class="danger">Revoke key</button></form>
<a class="button secondary" href="/app/settings">Cancel</a>
</div></section>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Revoke API key', session, section: 'settings', body }));
  });

  portal.post('/settings/keys/:id/revoke', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownKey(deps, session.accountId, param(request.params, 'id'));
    await revokeApiKey(deps.repos.accounts, session.accountId, key.id);
    return reply.redirect('/app/settings?notice=key-revoked', 303);
  });
}

const KEY_SHOWN =
  'The API key was created and shown once; it cannot be shown again. Create another if it was not copied.';

export function registerSettingsPages(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/settings', async (request, reply) => {
    const session = sessionOf(request);
    const newKey = takeNewKey(reply, request, {
      accountId: session.accountId,
      secretKey: deps.media.secretKey,
      publicUrl: deps.config.publicUrl,
    });
    // Once shown, the key is gone: a reload of the same address says it was made, not to copy it.
    const notice = noticeOf(request.query);
    const shown =
      notice && !newKey && field(request.query, 'notice', 40) === 'key-created' ? KEY_SHOWN : notice;
    return show(deps, reply, session, 200, shown, newKey ? { newKey } : {});
  });

  portal.post('/settings/keys', async (request, reply) => {
    const session = sessionOf(request);
    const name = field(request.body, 'name', 4 * API_KEY_NAME_MAX).trim() || 'portal';
    if ([...name].length > API_KEY_NAME_MAX) {
      return show(deps, reply, session, 400, undefined, {
        keyError: `The key name may be at most ${API_KEY_NAME_MAX} characters.`,
      });
    }
    const { plainKey } = await createApiKey(deps.repos.accounts, session.accountId, name);
    // Shown once, by the page the redirect leads to (src/portal/new-key-flash.ts): a reload creates nothing.
    flashNewKey(reply, request, {
      accountId: session.accountId,
      key: plainKey,
      secretKey: deps.media.secretKey,
      publicUrl: deps.config.publicUrl,
    });
    return reply.redirect('/app/settings?notice=key-created', 303);
  });

  registerKeyRevocation(portal, deps);
}
