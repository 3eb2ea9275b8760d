/**
 * Operation 8: opens a WhatsApp Flow. `flowId` is the gateway's flow id or the network's; `data` (any
 * object; the contract's `service`, `serviceOption`, `package` are examples) becomes the first screen's
 * data (docs/contract.md §3, docs/cloud-api.md §1.3 flow).
 */
import { Type } from 'typebox';
import { type CommonFields, commonFields, ok, refuse, type SendOperation, text } from './send-operation.ts';

/** Pictographs, flags and keycaps: the network refuses emoji in `flow_cta` (docs/cloud-api.md §1.5). */
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u{20E3}/u;

type Body = CommonFields & {
  text: string;
  flowId: string;
  flowCta: string;
  screen: string;
  data?: Record<string, unknown>;
};
export type FlowContent = Omit<Body, keyof CommonFields>;

const bodySchema = Type.Object(
  {
    ...commonFields,
    text: text(1, 1024),
    flowId: text(1, 64, { description: "the gateway's flow id or the network's (waFlowId)" }),
    flowCta: text(1, 20, { description: 'label of the button that opens the flow; no emoji' }),
    screen: text(1, 64, { description: 'id of the first screen' }),
    data: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "the first screen's data, any JSON object",
      }),
    ),
  },
  { additionalProperties: false },
);

export const sendFlow: SendOperation<Body, FlowContent, typeof bodySchema> = {
  kind: 'flow',
  summary: 'Send a message that opens a flow',
  bodySchema,
  normalize(body) {
    if (EMOJI.test(body.flowCta)) {
      return refuse(
        'flowCta',
        '`flowCta` must not contain emoji; the network refuses them on the flow button',
      );
    }
    return ok({
      text: body.text,
      flowId: body.flowId,
      flowCta: body.flowCta,
      screen: body.screen,
      // The network refuses an empty `data` object (docs/cloud-api.md §1.3), and `{}` asks for nothing: left out.
      ...(body.data && Object.keys(body.data).length > 0 ? { data: body.data } : {}),
    });
  },
  toCloud(content, context) {
    // The pipeline resolves the flow before building the message; reaching here without it is a bug.
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
            flow_action_payload: {
              screen: content.screen,
              ...(content.data && Object.keys(content.data).length > 0 ? { data: content.data } : {}),
            },
          },
        },
      },
    };
  },
};
