/** Receiving messages and statuses from the network (src/domain/inbound.ts). */
import type { InboundDeps } from '../../domain/inbound.ts';
import type { MediaLibrary } from '../../domain/inbound-media.ts';
import { copyInboundMedia } from '../../domain/inbound-media.ts';
import { joinLimitPolicies, joinLimits } from '../../domain/join-limits.ts';
import { DEFAULT_OPT_IN_KEYWORDS, DEFAULT_OPT_OUT_KEYWORDS } from '../../domain/opt-outs.ts';
import { mediaLink } from '../../lib/media-links.ts';
import { receivedMessagePublisher } from '../../store/event-outbox.ts';
import type { Core } from '../core.ts';
import { eventPayloads } from '../open-storage.ts';
import type { LimiterFactory } from './rate-limiters.ts';

export function inboundService(
  core: Pick<Core, 'config' | 'store' | 'repos' | 'sandbox' | 'secretKey' | 'connector' | 'logger' | 'wake'>,
  media: MediaLibrary,
  limiter: LimiterFactory,
  onSendFailure: InboundDeps['onSendFailure'],
): InboundDeps {
  const { config, repos, sandbox, secretKey, connector, logger } = core;
  const joinPolicies = joinLimitPolicies(config.sandboxJoins);
  const mediaDeps = { sandbox, numbers: repos.numbers, connector, files: media, secretKey, logger };
  return {
    ...repos,
    sandbox,
    connector,
    logger,
    joinLimits: joinLimits({ phone: limiter(joinPolicies.phone), sandbox: limiter(joinPolicies.sandbox) }),
    copyMedia: (accountId, event, mediaId) =>
      copyInboundMedia(
        { ...mediaDeps, mediaUrl: (fileId) => mediaLink(config.publicUrl, secretKey, fileId) },
        accountId,
        event,
        mediaId,
      ),
    publishReceived: receivedMessagePublisher(core.store.db, core.wake, eventPayloads),
    optOutKeywords: {
      optOut: config.optOutKeywords.optOut ?? DEFAULT_OPT_OUT_KEYWORDS,
      optIn: config.optOutKeywords.optIn ?? DEFAULT_OPT_IN_KEYWORDS,
    },
    wakeDispatcher: core.wake,
    onSendFailure,
  };
}
