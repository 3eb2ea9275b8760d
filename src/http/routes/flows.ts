/**
 * Flow management (operations 9–12 and decisions §4): create (multipart), update, preview link, publish,
 * deprecate, delete and list an account's flows. Every failure is the envelope with a message starting
 * `Request failed.` (the error handler adds it for these paths); another account's flow is a 404.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  createFlow,
  deleteFlow,
  deprecateFlow,
  type FlowDeps,
  flowPreview,
  listFlows,
  publishFlow,
  updateFlow,
} from '../../domain/flows/flow-service.ts';
import { success } from '../envelope.ts';
import { readFlowParts } from '../flow-form.ts';

const BASE = '/api/v1/msg/manage/flow';
const tags = ['flows'];
const IdParams = Type.Object({
  id: Type.String({ pattern: '^[1-9][0-9]{0,14}$', 'x-rule': 'must be a flow id (a positive whole number)' }),
});
const multipartDoc =
  'multipart/form-data: `phoneNumber` (sandbox or own number), `name`, `categories` (one or comma-separated: ' +
  'SIGN_UP, SIGN_IN, APPOINTMENT_BOOKING, LEAD_GENERATION, CONTACT_US, CUSTOMER_SUPPORT, SURVEY, OTHER), `file` (Flow JSON, .json)';

const idOf = (params: unknown) => Number((params as { id: string }).id);

export function registerFlowRoutes(app: FastifyInstance, deps: FlowDeps & { secretKey: Buffer }): void {
  app.post(
    BASE,
    {
      schema: {
        tags,
        summary: 'Create a flow (DRAFT) from a Flow JSON file',
        description: multipartDoc,
        consumes: ['multipart/form-data'],
      },
    },
    async (request) => success(await createFlow(deps, request.accountId, await readFlowParts(request))),
  );

  app.put(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: 'Change the name, categories or Flow JSON of a DRAFT flow (every part optional)',
        description: multipartDoc,
        consumes: ['multipart/form-data'],
        params: IdParams,
      },
    },
    async (request) =>
      success(await updateFlow(deps, request.accountId, idOf(request.params), await readFlowParts(request))),
  );

  app.get(
    `${BASE}/:id/preview/url`,
    { schema: { tags, summary: 'A link to preview the flow, valid 30 days', params: IdParams } },
    async (request) => success(await flowPreview(deps, request.accountId, idOf(request.params))),
  );

  app.post(
    `${BASE}/:id/publish`,
    { schema: { tags, summary: 'Publish a DRAFT flow', params: IdParams } },
    async (request) => success(await publishFlow(deps, request.accountId, idOf(request.params))),
  );

  app.post(
    `${BASE}/:id/deprecate`,
    { schema: { tags, summary: 'Deprecate a PUBLISHED flow (it can no longer be sent)', params: IdParams } },
    async (request) => success(await deprecateFlow(deps, request.accountId, idOf(request.params))),
  );

  app.delete(
    `${BASE}/:id`,
    { schema: { tags, summary: 'Delete a DRAFT flow', params: IdParams } },
    async (request) => {
      const id = idOf(request.params);
      await deleteFlow(deps, request.accountId, id);
      return success({ id, deleted: true });
    },
  );

  app.get(
    BASE,
    {
      schema: {
        tags,
        summary: 'List flows, newest first (the bare page, no envelope)',
        querystring: Type.Object(
          {
            page: Type.Optional(
              Type.String({
                pattern: '^[1-9][0-9]{0,8}$',
                'x-rule': 'must be a whole number from 1 (pages are 1-based)',
              }),
            ),
            per_page: Type.Optional(
              Type.String({
                pattern: '^(100|[1-9][0-9]?)$',
                'x-rule': 'must be a whole number from 1 to 100',
              }),
            ),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const query = request.query as { page?: string; per_page?: string };
      return listFlows(deps, request.accountId, Number(query.page ?? 1), Number(query.per_page ?? 20));
    },
  );
}
