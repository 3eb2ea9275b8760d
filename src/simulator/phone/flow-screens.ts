/**
 * The screens of a flow a phone received, drawn for the phone page by the Flow JSON renderer the
 * gateway's flow preview uses too (src/lib/flow-json/render/: pure functions, no gateway state). The page
 * script walks the screens and, on `complete`, sends the completion as `user-flow-reply.ts` shapes it.
 */
import { renderChildren } from '../../lib/flow-json/render/components.ts';
import type { FlowCatalog, SimFlow } from '../flow-catalog.ts';
import type { ReceivedMessage } from '../phone-book.ts';
import { isObject, type Json } from '../validate-fields.ts';

export interface FlowScreen {
  id: string;
  title: string;
  examples: Json;
  /** The screen's components as HTML (every value escaped by the renderer). */
  html: string;
}

export interface PhoneFlow {
  messageId: string;
  business: string;
  name: string;
  cta: string;
  firstScreen: string;
  screens: FlowScreen[];
}

function flowOf(catalog: FlowCatalog, business: string, parameters: Json): SimFlow | undefined {
  if (typeof parameters.flow_id === 'string') return catalog.get(parameters.flow_id);
  return catalog.list(business).find((f) => f.name === parameters.flow_name);
}

const parametersOf = (message: ReceivedMessage) =>
  ((message.content.interactive as Json).action as Json).parameters as Json;

/** The flow a flow message opens, or why it no longer opens: gone from the network, or deprecated. */
function openableFlow(
  catalog: FlowCatalog,
  message: ReceivedMessage,
): { name: string; json: string } | string {
  const flow = flowOf(catalog, message.from, parametersOf(message));
  if (!flow?.flowJson) return 'the flow of this message is no longer on the network';
  // Deprecated by the business: WhatsApp no longer opens it (docs/cloud-api.md §6.2).
  if (flow.status === 'DEPRECATED')
    return `flow ${flow.id} was deprecated by the business and can no longer be opened`;
  return { name: flow.name, json: flow.flowJson };
}

/** Why a flow message no longer opens on a phone (nor can be completed there); undefined while it does. */
export function closedFlowReason(catalog: FlowCatalog, message: ReceivedMessage): string | undefined {
  const flow = openableFlow(catalog, message);
  return typeof flow === 'string' ? flow : undefined;
}

/** The flow behind a received flow message, or a sentence saying why it cannot be opened. */
export function phoneFlow(catalog: FlowCatalog, message: ReceivedMessage): PhoneFlow | string {
  const parameters = parametersOf(message);
  const flow = openableFlow(catalog, message);
  if (typeof flow === 'string') return flow;
  let json: unknown;
  try {
    json = JSON.parse(flow.json.replace(/^\uFEFF/, ''));
  } catch {
    return 'the Flow JSON of this flow cannot be read';
  }
  const screens = (isObject(json) && Array.isArray(json.screens) ? json.screens : []).filter(isObject);
  if (screens.length === 0) return 'the flow has no screens';
  const payload = isObject(parameters.flow_action_payload) ? parameters.flow_action_payload : {};
  const ids = screens.map((s) => String(s.id));
  const first = typeof payload.screen === 'string' && ids.includes(payload.screen) ? payload.screen : ids[0]!;
  return {
    messageId: message.id,
    business: message.from,
    name: flow.name,
    cta: String(parameters.flow_cta ?? 'Open'),
    firstScreen: first,
    screens: screens.map((screen, index) => {
      const layout = isObject(screen.layout) ? screen.layout : {};
      // The message's own data fills the first screen, as on WhatsApp (docs/cloud-api.md §6.3); a screen
      // reached later gets what its navigate action passes. A screen's `__example__` values are the
      // preview's only: on a phone they would be answers nobody gave.
      const examples = String(screen.id) === first && isObject(payload.data) ? payload.data : {};
      return {
        id: String(screen.id),
        title: String(screen.title ?? screen.id),
        examples,
        html: renderChildren(layout.children, { prefix: `flow-s${index}`, examples }),
      };
    }),
  };
}
