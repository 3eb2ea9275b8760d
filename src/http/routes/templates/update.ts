/** `PUT /api/v1/template/:phone/:templateId`: changes a template and submits it for review again. */
import { type TemplateDeps, updateTemplate } from '../../../domain/templates/manage-templates.ts';
import { TemplateBody } from '../../../domain/templates/template-body.ts';
import type { TypedApp } from '../../typed-app.ts';
import { TemplateParams, tags, templateEnvelope } from './template-route-shapes.ts';

export function registerUpdateTemplate(app: TypedApp, deps: TemplateDeps): void {
  app.put(
    '/api/v1/template/:phone/:templateId',
    { schema: { tags, summary: 'Update a template', params: TemplateParams, body: TemplateBody } },
    async (request) => {
      const { phone, templateId } = request.params;
      await updateTemplate(deps, request.accountId, phone, templateId, request.body);
      return templateEnvelope({ success: true, error: null });
    },
  );
}
