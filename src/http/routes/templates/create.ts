/** `POST /api/v1/template/:phone`: submits a new template for review; the answer holds the template. */
import { createTemplate, type TemplateDeps } from '../../../domain/templates/manage-templates.ts';
import { TemplateBody } from '../../../domain/templates/template-body.ts';
import type { TypedApp } from '../../typed-app.ts';
import { PhoneParams, tags, templateEnvelope } from './template-route-shapes.ts';

export function registerCreateTemplate(app: TypedApp, deps: TemplateDeps): void {
  app.post(
    '/api/v1/template/:phone',
    { schema: { tags, summary: 'Create a template', params: PhoneParams, body: TemplateBody } },
    async (request) =>
      templateEnvelope(await createTemplate(deps, request.accountId, request.params.phone, request.body)),
  );
}
