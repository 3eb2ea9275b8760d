/** `GET /api/v1/msg/manage/flow?page=&per_page=`: an account's flows, newest first, as a bare page. */
import { Type } from 'typebox';
import { listFlows } from '../../../domain/flows/flow-service.ts';
import type { TypedApp } from '../../typed-app.ts';
import { BASE, type FlowRouteDeps, tags } from './flow-route-shapes.ts';

const ListQuery = Type.Object(
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
);

export function registerListFlows(app: TypedApp, deps: FlowRouteDeps): void {
  app.get(
    BASE,
    {
      schema: {
        tags,
        summary: 'List flows, newest first (the bare page, no envelope)',
        querystring: ListQuery,
      },
    },
    async (request) => {
      const { page, per_page } = request.query;
      return listFlows(deps, request.accountId, Number(page ?? 1), Number(per_page ?? 20));
    },
  );
}
