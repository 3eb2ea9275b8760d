/**
 * The composition root: the one place that picks the store dialect and the network and wires the parts
 * together, in this order: storage, the HTTP server, the network, the services, the routes. It never
 * listens; src/main.ts does (so tests build gateways freely). The parts are built in src/app/*.ts and
 * src/app/services/*.ts; nothing here decides anything but what goes where.
 */
import type { FastifyInstance } from 'fastify';
import type { Config, EnvConfig } from '../config/config.ts';
import type { NetworkConnector } from '../domain/ports/network.ts';
import type { WebhookDispatcher } from '../events/dispatcher.ts';
import { closeGracefully } from '../http/close-gracefully.ts';
import { type PasswordHashing, passwordHashing } from '../portal/auth/passwords.ts';
import type { Simulator } from '../simulator/index.ts';
import type { Store } from '../store/connect.ts';
import type { Repositories } from '../store/repositories.ts';
import type { Core } from './core.ts';
import { createHttpServer, warnSharedDataDir } from './http-server.ts';
import { openStorage } from './open-storage.ts';
import { webhookDispatcher } from './services/dispatcher.ts';
import { buildServices } from './services/index.ts';
import { cloudConnector } from './wire-connector.ts';
import { registerApi, registerPortal, registerPublicRoutes } from './wire-http.ts';
import { installSimulator } from './wire-simulator.ts';

export interface Gateway {
  /** The configuration with every credential known (the simulator's derived from the secret key). */
  config: Readonly<Config>;
  app: FastifyInstance;
  store: Store;
  repos: Repositories;
  secretKey: Buffer;
  simulator: Simulator | null;
  dispatcher: WebhookDispatcher;
  close(): Promise<void>;
}

/** Far longer than an upload of the largest file takes. */
const STALE_UPLOAD_MS = 3_600_000;

export interface BuildOptions {
  /** Replaces the Cloud API connector (only for tests of what cannot run here). */
  connector?: NetworkConnector;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: { write(line: string): void };
  /**
   * The portal's password hashing, at a cost of the caller's: only a test suite's own gateways give one
   * (hashes say their cost, so any verifies anywhere). Every other gateway hashes at PASSWORD_HASH_PARAMS.
   */
  passwordHashing?: PasswordHashing;
}

export async function buildGateway(
  envConfig: Readonly<EnvConfig>,
  options: BuildOptions = {},
): Promise<Gateway> {
  // Events are written before the dispatcher exists (it starts when the server is ready): wake it late.
  const wake = () => dispatcher.wake();
  const { sharedDataDirMode, ...storage } = await openStorage(envConfig, wake);
  const { config, store } = storage;
  const { app, registry } = await createHttpServer(config, options.logStream);
  warnSharedDataDir(app, config.dataDir, sharedDataDirMode);
  const simulator = await installSimulator(app, config, store);
  const connector = options.connector ?? cloudConnector(app, config, store);
  const sandbox = { phone: config.sandboxNumber, ...config.sandbox };
  const core: Core = { ...storage, connector, sandbox, logger: app.log, wake };
  const services = buildServices(core);
  const dispatcher = webhookDispatcher(core, registry);

  await registerApi(app, core, services);
  app.addHook('onReady', async () => {
    if (store.dialect === 'sqlite') await core.repos.webhooks.releaseAllClaims();
    dispatcher.start();
    services.sweeper.start();
    services.retention.start();
    services.campaignRunner.start();
    // An upload spooled longer ago than any upload can last was left by a process killed mid-way.
    await services.uploads.media.discardStale(Date.now() - STALE_UPLOAD_MS);
  });
  await registerPublicRoutes(app, core, services, registry);
  await registerPortal(app, core, services, options.passwordHashing ?? passwordHashing());

  return {
    ...storage,
    app,
    simulator,
    dispatcher,
    async close() {
      await closeGracefully(app);
      await services.campaignRunner.stop();
      await dispatcher.stop();
      await services.sweeper.stop();
      await services.retention.stop();
      await simulator?.close();
      await store.close();
    },
  };
}
