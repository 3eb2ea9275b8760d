/** Unknown outcomes no network status settled in time become FAILED (docs/adr/0013), on every node. */
import { createSweeper, type Sweeper, sweepInterval } from '../../domain/outcome-sweeper.ts';
import { SWEEP_BATCH, sweepUnsettled } from '../../domain/unknown-outcomes.ts';
import type { Core } from '../core.ts';
import { abandonedClaimMs } from './send.ts';

export function outcomeSweeper(core: Pick<Core, 'config' | 'repos' | 'logger'>): Sweeper {
  const { graph } = core.config;
  return createSweeper({
    pass: () =>
      sweepUnsettled({
        messages: core.repos.messages,
        abandonedClaimMs: abandonedClaimMs(graph),
        unknownOutcomeMs: graph.unknownOutcomeMs,
        now: Date.now,
      }),
    batch: SWEEP_BATCH,
    everyMs: sweepInterval(graph.unknownOutcomeMs),
    logger: core.logger,
  });
}
