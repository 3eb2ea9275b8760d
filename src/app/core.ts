/**
 * What every part of the gateway is built from: the configuration, the store and its repositories, the
 * network connector, the log. Each factory under src/app/ takes the few of these it needs.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.ts';
import type { NetworkConnector } from '../domain/ports/network.ts';
import type { SandboxSettings } from '../domain/senders.ts';
import type { Store } from '../store/connect.ts';
import type { WakeDispatcher } from '../store/event-outbox.ts';
import type { Repositories } from '../store/repositories.ts';

export interface Core {
  /** The configuration with every credential known (the simulator's derived from the secret key). */
  config: Readonly<Config>;
  secretKey: Buffer;
  store: Store;
  repos: Repositories;
  connector: NetworkConnector;
  sandbox: SandboxSettings;
  logger: FastifyBaseLogger;
  /** Tells the webhook dispatcher that new events wait. */
  wake: WakeDispatcher;
}
