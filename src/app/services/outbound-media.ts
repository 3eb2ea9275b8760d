/** Media uploaded to send by id (src/domain/outbound-media.ts). */
import type { OutboundMediaDeps } from '../../domain/outbound-media.ts';
import { outboundMediaRepo } from '../../store/outbound-media-repo.ts';
import type { Core } from '../core.ts';

export function outboundMediaService(
  core: Pick<Core, 'config' | 'store' | 'repos' | 'sandbox' | 'secretKey' | 'connector'>,
): OutboundMediaDeps {
  return {
    numbers: core.repos.numbers,
    sandbox: core.sandbox,
    secretKey: core.secretKey,
    media: outboundMediaRepo(core.store.db, core.config.dataDir),
    connector: core.connector,
  };
}
