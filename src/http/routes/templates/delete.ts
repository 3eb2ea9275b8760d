/** `DELETE /api/v1/template/:phone/:templateId`: deletes one language of a template. */
import { deleteTemplate, type TemplateDeps } from '../../../domain/templates/manage-templates.ts';
import type { TypedApp } from '../../typed-app.ts';
import { TemplateParams, tags, templateEnvelope } from './template-route-shapes.ts';

export function registerDeleteTemplate(app: TypedApp, deps: TemplateDeps): void {
  app.delete(
    '/api/v1/template/:phone/:templateId',
    { schema: { tags, summary: 'Delete a template (one language)', params: TemplateParams } },
    async (request) => {
      const { phone, templateId } = request.params;
      await deleteTemplate(deps, request.accountId, phone, templateId);
      return templateEnvelope({ success: true, error: null });
    },
  );
}
