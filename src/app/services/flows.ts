/** Managing WhatsApp Flows (src/domain/flows/flow-service.ts). */
import type { FlowDeps } from '../../domain/flows/flow-service.ts';
import { flowPreviewLink } from '../../lib/flow-preview-links.ts';
import type { Core } from '../core.ts';

export function flowService(
  core: Pick<Core, 'config' | 'repos' | 'sandbox' | 'secretKey' | 'connector'>,
): FlowDeps {
  return {
    ...core.repos,
    sandbox: core.sandbox,
    secretKey: core.secretKey,
    connector: core.connector,
    simulated: core.config.network === 'simulator',
    previewLink: (flowId) => flowPreviewLink(core.config.publicUrl, core.secretKey, flowId),
  };
}
