/** Sending messages (src/domain/send-message.ts), and how long a send or its outcome may take. */
import { resolveFlowSend } from '../../domain/flows/resolve-flow-send.ts';
import type { MarkReadDeps } from '../../domain/mark-read.ts';
import type { FlowContent } from '../../domain/messages/send-flow.ts';
import type { MediaContent } from '../../domain/messages/send-media.ts';
import type { TemplateContent } from '../../domain/messages/send-template.ts';
import { mediaToSend } from '../../domain/outbound-media.ts';
import type { OutboundMediaStore } from '../../domain/ports/outbound-media.ts';
import type { TemplatesStore } from '../../domain/ports/templates.ts';
import type { SendDeps } from '../../domain/send-message.ts';
import { resolveTemplateSend } from '../../domain/templates/resolve-template-send.ts';
import type { Core } from '../core.ts';

/**
 * Twice the longest a send can take (pacing wait, retries, then the network timeout), and at least a
 * minute: a claim older than that was left by a node that stopped mid-send.
 */
export function abandonedClaimMs(graph: Core['config']['graph']): number {
  return Math.max(60_000, 2 * (graph.maxPacingWaitMs + graph.retryBudgetMs + graph.timeoutMs));
}

export function sendService(
  core: Pick<Core, 'config' | 'repos' | 'sandbox' | 'secretKey' | 'connector'>,
  templates: TemplatesStore,
  uploads: Pick<OutboundMediaStore, 'findOutboundMedia'>,
): SendDeps {
  const { repos, config } = core;
  return {
    ...repos,
    sandbox: core.sandbox,
    secretKey: core.secretKey,
    connector: core.connector,
    windowOpenSince: (business, user) => repos.conversations.lastInboundAt(business, user),
    resolveTemplate: (accountId, senderPhone, content, recipient) =>
      resolveTemplateSend(
        { templates, uploads, optOuts: repos.optOuts },
        accountId,
        senderPhone,
        content as TemplateContent,
        recipient,
      ),
    resolveFlow: (accountId, content) => resolveFlowSend(repos.flows, accountId, content as FlowContent),
    resolveMedia: async (accountId, senderPhone, content) => {
      const media = content as MediaContent;
      if (media.mediaId === undefined) return {};
      const networkMediaId = await mediaToSend(uploads, accountId, senderPhone, {
        mediaId: media.mediaId,
        mediaType: media.mediaType,
      });
      return { media: { networkMediaId } };
    },
    abandonedClaimMs: abandonedClaimMs(config.graph),
    unknownOutcomeMs: config.graph.unknownOutcomeMs,
  };
}

/** Read receipts: the same sender rules as a send, and the account's received messages. */
export function receiptService(
  core: Pick<Core, 'repos' | 'sandbox' | 'secretKey' | 'connector'>,
): MarkReadDeps {
  return { ...core.repos, sandbox: core.sandbox, secretKey: core.secretKey, connector: core.connector };
}
