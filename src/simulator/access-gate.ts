/**
 * The simulator's own routes when it is private (docs/simulator.md, docs/adr/0014-private-simulator.md):
 * the phone page and its assets and live stream, the users API, faults and template status need the
 * simulator token. Whoever reaches them could otherwise read every virtual user's messages, write as any
 * user (and so move users between sandboxes) and break the network for everyone.
 *
 * The token is accepted as `Authorization: Bearer <token>`, or as the cookie `switchboard_simulator`
 * (HttpOnly, SameSite=Strict, Path=<prefix>) that `GET <prefix>/phone?token=<token>` sets once and then
 * redirects to the page without the token, so the browser's address bar and history do not keep it.
 *
 * The simulated Graph API (routes with a `:version` segment, and media downloads) is left to its own
 * check: like Meta's, it takes the Bearer access token and answers Graph's 401 (code 190) without it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../lib/escape-html.ts';
import { sameSecret } from '../lib/same-secret.ts';
import { fieldOf } from './request-fields.ts';

export interface SimulatorGate {
  /** The simulator token (SIMULATOR_TOKEN, or derived from the install's secret key). */
  token: string;
  /** Mark the cookie Secure (the gateway is reached over https). */
  secureCookie: boolean;
}

export const GATE_COOKIE = 'switchboard_simulator';

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}

function cookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === GATE_COOKIE) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The page URL without its `token` parameter, the other parameters (`user`, `with`) kept. */
function withoutToken(url: string): string {
  const parsed = new URL(url, 'http://simulator.invalid');
  parsed.searchParams.delete('token');
  return parsed.pathname + parsed.search;
}

const MESSAGE =
  'This simulator is private: send its token as `Authorization: Bearer <token>` ' +
  '(`npm run cli -- simulator token` prints it), or open the phone page once with `?token=<token>`.';

/**
 * A person who opens the page without the token gets a way to enter it, not a JSON error. The page's
 * other parameters (`user`, `with`) ride along in the form, so the phone opens on the numbers asked for.
 */
function loginPage(pagePath: string, requestUrl: string, wrong: boolean): string {
  const kept = [...new URL(requestUrl, 'http://simulator.invalid').searchParams]
    .filter(([name]) => name !== 'token')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Private simulator — Switchboard</title></head>
<body><main><h1>This simulator is private</h1>
<p>${wrong ? 'That token is not this simulator’s. ' : ''}Enter the simulator token: <code>npm run cli -- simulator token</code> prints it.</p>
<form method="get" action="${escapeHtml(pagePath)}">${kept}<label for="token">Simulator token</label>
<input id="token" name="token" type="password" autocomplete="off" required> <button type="submit">Open the phone</button></form>
</main></body></html>`;
}

function refuse(request: FastifyRequest, reply: FastifyReply, pagePath: string, wrong: boolean) {
  reply.code(401).header('www-authenticate', 'Bearer realm="simulator"').header('cache-control', 'no-store');
  if (request.routeOptions.url === pagePath && request.method === 'GET') {
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header(
        'content-security-policy',
        "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      )
      .header('referrer-policy', 'no-referrer')
      .send(loginPage(pagePath, request.url, wrong));
  }
  return reply.send({ error: { message: MESSAGE } });
}

export function installAccessGate(app: FastifyInstance, gate: SimulatorGate): void {
  const expected = gate.token;
  const prefix = app.prefix;
  const pagePath = `${prefix}/phone`;
  const isGraph = (url: string | undefined) =>
    url !== undefined && (url.startsWith(`${prefix}/:version/`) || url === `${prefix}/media-download/:id`);
  const cookie = [
    `${GATE_COOKIE}=${gate.token}`,
    `Path=${prefix}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(gate.secureCookie ? ['Secure'] : []),
  ].join('; ');

  app.addHook('onRequest', async (request, reply) => {
    if (isGraph(request.routeOptions.url)) return;
    if (sameSecret(bearerOf(request), expected) || sameSecret(cookieOf(request), expected)) return;
    const token = fieldOf(request.query, 'token');
    const offered = typeof token === 'string' ? token : undefined;
    if (request.routeOptions.url === pagePath && request.method === 'GET' && offered !== undefined) {
      if (sameSecret(offered, expected)) {
        return reply
          .code(303)
          .header('set-cookie', cookie)
          .header('location', withoutToken(request.url))
          .send();
      }
    }
    return refuse(request, reply, pagePath, offered !== undefined);
  });
}
