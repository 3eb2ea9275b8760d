/**
 * `GET /docs`: the API reference as a page, Swagger UI rendering the served document (`/openapi.json`):
 * operations grouped by tag with a filter, every answer with its example, and "Try it out" against this
 * gateway with your `apiKey`. Its assets are the @fastify/swagger-ui package's own, served by the
 * gateway: nothing is fetched from elsewhere (no CDN, no online validator), under a CSP that says so.
 */
import swaggerUi from '@fastify/swagger-ui';
import type { TypedApp } from '../../typed-app.ts';

const REFERENCE_PAGE_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

export async function registerReferencePage(app: TypedApp): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // The package's policy allows any https font and style, and its online validator: this one, only the
    // gateway itself (Swagger UI sets style attributes, hence the inline styles).
    transformStaticCSP: () => REFERENCE_PAGE_CSP,
    uiConfig: {
      // The public validator would send the document to a third party.
      validatorUrl: null,
      // No top bar: it offers to load any other document's URL into this page.
      layout: 'BaseLayout',
      deepLinking: true,
      docExpansion: 'list',
      displayOperationId: true,
      filter: true,
      tryItOutEnabled: false,
      persistAuthorization: false,
    },
    theme: { title: 'Switchboard API reference' },
  });
}
