/**
 * The Flows API calls of the Cloud API connector (docs/cloud-api.md §6.1), each one Graph call (graph-call.ts:
 * the connector's agent and timeout, errors classified like a send's).
 */
import { FormData } from 'undici';
import type { FlowCallResult, NetworkConnector, NetworkFlowProblem } from '../domain/ports/network.ts';
import { type GraphCallOptions, graphCall } from './graph-call.ts';
import { unexpectedAnswer } from './graph-errors.ts';

type FlowCalls = Pick<
  NetworkConnector,
  'createFlow' | 'uploadFlowJson' | 'updateFlowMetadata' | 'publishFlow' | 'deprecateFlow' | 'deleteFlow'
>;

/** A create answered without the new flow's id: nothing the gateway can refer to later. */
const NO_FLOW_ID = unexpectedAnswer('permanent', 200, 'the created flow has no id');

export function cloudFlowCalls(options: GraphCallOptions): FlowCalls {
  const graph = (
    method: 'POST' | 'DELETE',
    path: string,
    accessToken: string,
    body?: { json: unknown } | { form: FormData },
  ) => graphCall(options, method, path, accessToken, body);
  const done = (result: FlowCallResult<unknown>): FlowCallResult<void> =>
    result.ok ? { ok: true, value: undefined } : result;
  const id = encodeURIComponent;

  return {
    async createFlow(account, flow) {
      const result = await graph('POST', `${id(account.wabaId)}/flows`, account.accessToken, {
        json: { name: flow.name, categories: flow.categories },
      });
      if (!result.ok) return result;
      const flowId = result.value.id;
      if (typeof flowId !== 'string') return { ok: false, failure: NO_FLOW_ID };
      return { ok: true, value: { flowId } };
    },

    async uploadFlowJson(accessToken, flowId, flowJson) {
      const form = new FormData();
      form.append('name', 'flow.json');
      form.append('asset_type', 'FLOW_JSON');
      form.append('file', new Blob([flowJson], { type: 'application/json' }), 'flow.json');
      const result = await graph('POST', `${id(flowId)}/assets`, accessToken, { form });
      if (!result.ok) return result;
      const problems = result.value.validation_errors;
      return {
        ok: true,
        value: { validationErrors: Array.isArray(problems) ? (problems as NetworkFlowProblem[]) : [] },
      };
    },

    async updateFlowMetadata(accessToken, flowId, changes) {
      return done(await graph('POST', id(flowId), accessToken, { json: changes }));
    },
    async publishFlow(accessToken, flowId) {
      return done(await graph('POST', `${id(flowId)}/publish`, accessToken));
    },
    async deprecateFlow(accessToken, flowId) {
      return done(await graph('POST', `${id(flowId)}/deprecate`, accessToken));
    },
    async deleteFlow(accessToken, flowId) {
      return done(await graph('DELETE', id(flowId), accessToken));
    },
  };
}
