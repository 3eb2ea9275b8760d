/**
 * Operation 8: opens a WhatsApp Flow. `flowId` is the gateway's flow id or the network's; `data` (any
 * object; the document's `service`, `serviceOption`, `package` are examples) becomes the first screen's
 * data (decisions §3, reference §1.3 flow).
 */
import { Type } from 'typebox';
import { type CommonFields, commonFields, ok, type SendOperation, text } from './send-operation.ts';

type Body = CommonFields & {
  text: string;
  flowId: string;
  flowCta: string;
  screen: string;
  data?: Record<string, unknown>;
};
export type FlowContent = Omit<Body, keyof CommonFields>;

export const sendFlow: SendOperation<Body, FlowContent> = {
  kind: 'flow',
  path: '/api/v1/msg/interactive/flows',
  summary: 'Send a message that opens a flow',
  bodySchema: Type.Object(
    {
      ...commonFields,
      text: text(1, 1024),
      flowId: text(1, 64),
      flowCta: text(1, 20),
      screen: text(1, 64),
      data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    },
    { additionalProperties: false },
  ),
  normalize: (body) =>
    ok({
      text: body.text,
      flowId: body.flowId,
      flowCta: body.flowCta,
      screen: body.screen,
      ...(body.data && Object.keys(body.data).length > 0 ? { data: body.data } : {}),
    }),
  toCloud(content, context) {
    if (!context.flow) throw new Error('a flow send needs the resolved flow in its context');
    return {
      type: 'interactive',
      interactive: {
        type: 'flow',
        body: { text: content.text },
        action: {
          name: 'flow',
          parameters: {
            flow_message_version: '3',
            flow_token: context.flowToken ?? 'unused',
            flow_id: context.flow.networkFlowId,
            flow_cta: content.flowCta,
            mode: context.flow.mode,
            flow_action: 'navigate',
            // The network refuses an empty `data` object, so it is left out when there is none.
            flow_action_payload: { screen: content.screen, ...(content.data ? { data: content.data } : {}) },
          },
        },
      },
    };
  },
};
