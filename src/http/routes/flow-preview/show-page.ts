/**
 * `GET /flows/preview/:token`: the page behind a flow's `preview_url` (operation 10). The signed, expiring
 * token is the credential, so there is no API key; an invalid, tampered or expired token, or a flow that
 * is gone, is the same 404 page, which tells a prober nothing. The page's inline style and script run
 * under a per-response nonce, and nothing else may load.
 */
import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import type { FlowsStore } from '../../../domain/ports/flows.ts';
import { flowIdOfPreviewToken } from '../../../lib/flow-preview-links.ts';
import { flowPreviewPage, notFoundPage } from '../../flow-preview/page.ts';
import type { TypedApp } from '../../typed-app.ts';

// Only says the path parameter is text, as it always is: a token too long to be one is the same 404 page
// as any other invalid token, not a 400 that would tell a prober where the check is.
const TokenParams = Type.Object({ token: Type.String() });

export function registerShowFlowPreview(app: TypedApp, flows: FlowsStore, secretKey: Buffer): void {
  app.get(
    '/flows/preview/:token',
    { schema: { hide: true, params: TokenParams } },
    async (request, reply) => {
      const nonce = randomBytes(16).toString('base64');
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header(
          'content-security-policy',
          `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
        )
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      const { token } = request.params;
      const id = token.length <= 100 ? flowIdOfPreviewToken(secretKey, token) : undefined;
      const row = id !== undefined ? await flows.findFlowForPreview(id) : undefined;
      if (!row) return reply.code(404).send(notFoundPage(nonce));
      const flow = JSON.parse(row.flowJson.replace(/^\uFEFF/, '')) as { screens: Record<string, unknown>[] };
      return reply.send(flowPreviewPage({ name: row.name, status: row.status, flow, nonce }));
    },
  );
}
