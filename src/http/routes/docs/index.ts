/** The API's documentation: the OpenAPI document and the reference page rendered from it. */
import type { TypedApp } from '../../typed-app.ts';
import { registerOpenApiDocument } from './openapi-document.ts';
import { registerReferencePage } from './reference-page.ts';

export async function registerDocsRoutes(app: TypedApp): Promise<void> {
  registerOpenApiDocument(app);
  await registerReferencePage(app);
}
