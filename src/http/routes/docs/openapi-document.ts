/** `GET /openapi.json`: the API document, generated from the route schemas (src/http/api-docs.ts). */
import type { TypedApp } from '../../typed-app.ts';

export function registerOpenApiDocument(app: TypedApp): void {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
