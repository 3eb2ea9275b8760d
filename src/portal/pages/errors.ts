/** Pages for what went wrong: every status a visitor can cause gets words, never a stack or a JSON body. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../html.ts';
import { page } from '../layout.ts';

const TITLES: Record<number, string> = {
  400: 'That request could not be used',
  401: 'Sign-in failed',
  403: 'Not allowed',
  404: 'Not found',
  409: 'That cannot be done now',
  410: 'This link no longer works',
  413: 'Too large',
  415: 'Unsupported form',
  429: 'Too many attempts',
  500: 'Something went wrong',
};

export function sendErrorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
): FastifyReply {
  const home = request.portalSession ? '/app/settings' : '/app/sign-in';
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      page({
        title: TITLES[status] ?? (status >= 500 ? TITLES[500]! : TITLES[400]!),
        session: request.portalSession,
        error: message,
        body: html`<p><a href="${home}">${request.portalSession ? 'Back to settings' : 'Go to sign-in'}</a></p>`,
      }),
    );
}

export const CSRF_REFUSED =
  'This form has expired or did not come from this site. Go back, reload the page and submit it again.';
