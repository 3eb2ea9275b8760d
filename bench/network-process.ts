/**
 * The network of a benchmark: a gateway process running only the simulator, which answers sends and
 * posts its webhooks to `webhookUrl`, as Meta would. It stands in for Meta, whose side runs elsewhere:
 * its throughput and pair limits are off unless asked for, it never makes sends wait for the webhooks it
 * owes (docs/simulator.md, Meta's limits), and it keeps no state of its own, so its
 * durability is not counted against the benchmarked gateway (bench/README.md gives what it costs on the
 * same machine). It shares the benchmarked gateway's SECRET_KEY: both derive the simulator's access
 * token and app secret from it, so each side accepts the other's calls.
 */
import { type GatewayProcess, spawnGateway } from '../test/support/process.ts';

export function spawnNetwork(options: {
  dataDir: string;
  secretKey: string;
  webhookUrl: string;
  /** The port to listen on, when the gateway was told it before the network started. */
  port?: number;
  /** More simulator settings (SIMULATOR_STATUS_WEBHOOKS, SIMULATOR_MAX_SENDS_PER_SECOND, ...). */
  env?: Record<string, string>;
}): Promise<GatewayProcess> {
  return spawnGateway({
    DATA_DIR: options.dataDir,
    SECRET_KEY: options.secretKey,
    ...(options.port === undefined ? {} : { PORT: String(options.port) }),
    SEED_DEMO_ACCOUNT: 'false',
    LOG_LEVEL: 'warn',
    SIMULATOR_STATUS_DELAY_MS: '200',
    SIMULATOR_WEBHOOK_URL: options.webhookUrl,
    SIMULATOR_MAX_SENDS_PER_SECOND: '0',
    SIMULATOR_PAIR_BURST: '0',
    SIMULATOR_KEEP_STATE: 'false',
    // Meta holds its backlog of webhooks on its own side and never slows sends for it.
    SIMULATOR_MAX_OWED_WEBHOOKS: '10000000',
    ...options.env,
  });
}
