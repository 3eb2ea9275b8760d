/** The API's documentation: the OpenAPI document and a reference page rendered from it. */
import type { TypedApp } from '../../typed-app.ts';
import { registerOpenApiDocument } from './openapi-document.ts';
import { registerReferencePage } from './reference-page.ts';

export function registerDocsRoutes(app: TypedApp): void {
  registerOpenApiDocument(app);
  registerReferencePage(app);
}
