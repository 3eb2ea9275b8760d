/** `GET /api/v1/template/:phone`: a number's templates, filtered by status, name or language. */
import { Type } from 'typebox';
import { listTemplates, type TemplateDeps } from '../../../domain/templates/manage-templates.ts';
import type { TypedApp } from '../../typed-app.ts';
import { PhoneParams, tags, templateEnvelope } from './template-route-shapes.ts';

const ListQuery = Type.Object(
  {
    status: Type.Optional(Type.String({ maxLength: 32 })),
    name: Type.Optional(Type.String({ maxLength: 512 })),
    language: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { additionalProperties: false },
);

export function registerListTemplates(app: TypedApp, deps: TemplateDeps): void {
  app.get(
    '/api/v1/template/:phone',
    { schema: { tags, summary: 'List templates', params: PhoneParams, querystring: ListQuery } },
    async (request) => {
      const templates = await listTemplates(deps, request.accountId, request.params.phone, request.query);
      return templateEnvelope({ data: templates });
    },
  );
}
