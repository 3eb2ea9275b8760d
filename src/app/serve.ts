/**
 * The server process, started by src/main.ts: configuration, build, listen, graceful shutdown.
 * SIGTERM/SIGINT stop accepting new connections, let requests in flight finish, then close the database.
 */
import { seedDemoAccount } from '../cli/seed-demo.ts';
import { type Config, ConfigError, loadConfig } from '../config/config.ts';
import { buildGateway } from './build-gateway.ts';

/** Who can reach the simulator, and where its token is (never the token itself: this is printed each start). */
function simulatorAccessLine(config: Readonly<Config>): string {
  if (!config.simulator.requireToken) {
    return `The simulator answers only on this machine (${config.host}): ${config.publicUrl}/simulator/phone. Set HOST to reach it from elsewhere; it then needs its token (docs/simulator.md).`;
  }
  return `The simulator is private: its phone page, users and faults need the simulator token, which \`npm run cli -- simulator token\` prints (docs/simulator.md).`;
}

async function serve(): Promise<void> {
  let envConfig: ReturnType<typeof loadConfig>;
  try {
    envConfig = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const gateway = await buildGateway(envConfig);
  const { config } = gateway;
  if (config.seedDemoAccount) await seedDemoAccount(gateway, config);
  const address = await gateway.app.listen({ port: config.port, host: config.host });
  // Said whatever the log level, so a person (or a supervising script) always learns the address.
  process.stdout.write(
    `Switchboard is listening at ${address} (network: ${config.network}, database: ${gateway.store.dialect})\n`,
  );
  if (config.network === 'simulator') process.stdout.write(`${simulatorAccessLine(config)}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    gateway.app.log.info({ signal }, 'shutting down: draining requests in flight');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await gateway.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** Serves until a signal stops it; a failure to start is said on stderr, with exit code 1. */
export function runServer(): void {
  serve().catch((error) => {
    process.stderr.write(
      `Switchboard failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  });
}
