/** `DELETE /api/v1/template/:phone?name=`: deletes every language of a template name. */
import { Type } from 'typebox';
import { deleteTemplatesByName, type TemplateDeps } from '../../../domain/templates/manage-templates.ts';
import type { TypedApp } from '../../typed-app.ts';
import { PhoneParams, tags, templateEnvelope } from './template-route-shapes.ts';

const DeleteQuery = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 512 }) },
  { additionalProperties: false },
);

export function registerDeleteTemplatesByName(app: TypedApp, deps: TemplateDeps): void {
  app.delete(
    '/api/v1/template/:phone',
    {
      schema: {
        tags,
        summary: 'Delete every language of a template name',
        params: PhoneParams,
        querystring: DeleteQuery,
      },
    },
    async (request) => {
      await deleteTemplatesByName(deps, request.accountId, request.params.phone, request.query.name);
      return templateEnvelope({ success: true, error: null });
    },
  );
}
