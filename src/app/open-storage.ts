/**
 * The data directory, the secret key and the database, migrated, with its repositories. Status changes
 * and their `message.status` events commit together (src/store/event-outbox.ts).
 */
import type { Config, EnvConfig } from '../config/config.ts';
import { withInstallSecrets } from '../config/simulator-secrets.ts';
import { inboundPayload, statusPayload } from '../events/payloads.ts';
import { prepareDataDir } from '../lib/private-files.ts';
import { openStore, type Store } from '../store/connect.ts';
import { type EventPayloads, statusEvents, type WakeDispatcher } from '../store/event-outbox.ts';
import { migrateToLatest } from '../store/migrate.ts';
import { createRepositories, type Repositories } from '../store/repositories.ts';
import { loadOrCreateSecretKey } from '../store/secret-key.ts';

/** What each published event says (src/events/payloads.ts). */
export const eventPayloads: EventPayloads = { status: statusPayload, received: inboundPayload };

export interface Storage {
  config: Readonly<Config>;
  secretKey: Buffer;
  store: Store;
  repos: Repositories;
  /** The data directory's mode when other users of this machine can enter it. */
  sharedDataDirMode: ReturnType<typeof prepareDataDir>;
}

/** The install's secret key (made on first use) and the configuration completed with what it derives. */
export function installSecrets(envConfig: Readonly<EnvConfig>): {
  config: Readonly<Config>;
  secretKey: Buffer;
} {
  const secretKey = loadOrCreateSecretKey(envConfig.secretKey, envConfig.dataDir);
  return { config: withInstallSecrets(envConfig, secretKey), secretKey };
}

export async function openStorage(envConfig: Readonly<EnvConfig>, wake: WakeDispatcher): Promise<Storage> {
  const sharedDataDirMode = prepareDataDir(envConfig.dataDir);
  const { config, secretKey } = installSecrets(envConfig);
  const store = openStore(config.databaseUrl, { poolSize: config.databasePoolSize });
  await migrateToLatest(store);
  const repos = createRepositories(store, statusEvents(wake, eventPayloads));
  return { config, secretKey, store, repos, sharedDataDirMode };
}

/**
 * The database for one operator command (src/cli/main.ts), migrated, with its repositories: a small pool,
 * and no event hooks, since commands change no message status.
 */
export async function openOperatorStore(
  config: Readonly<Config>,
): Promise<{ repos: Repositories; close(): Promise<void> }> {
  const store = openStore(config.databaseUrl, { poolSize: 2 });
  try {
    await migrateToLatest(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return { repos: createRepositories(store), close: () => store.close() };
}
