/**
 * The data directory, the secret key and the database, migrated, with its repositories. Status changes
 * and their `message.status` events commit together (src/events/outbox.ts).
 */
import type { Config, EnvConfig } from '../config/config.ts';
import { withInstallSecrets } from '../config/simulator-secrets.ts';
import { statusEvents, type WakeDispatcher } from '../events/outbox.ts';
import { prepareDataDir } from '../lib/private-files.ts';
import { openStore, type Store } from '../store/connect.ts';
import { migrateToLatest } from '../store/migrate.ts';
import { createRepositories, type Repositories } from '../store/repositories.ts';
import { loadOrCreateSecretKey } from '../store/secret-key.ts';

export interface Storage {
  config: Readonly<Config>;
  secretKey: Buffer;
  store: Store;
  repos: Repositories;
  /** The data directory's mode when other users of this machine can enter it. */
  sharedDataDirMode: ReturnType<typeof prepareDataDir>;
}

export async function openStorage(envConfig: Readonly<EnvConfig>, wake: WakeDispatcher): Promise<Storage> {
  const sharedDataDirMode = prepareDataDir(envConfig.dataDir);
  const secretKey = loadOrCreateSecretKey(envConfig.secretKey, envConfig.dataDir);
  const config = withInstallSecrets(envConfig, secretKey);
  const store = openStore(config.databaseUrl);
  await migrateToLatest(store);
  const repos = createRepositories(store, statusEvents(wake));
  return { config, secretKey, store, repos, sharedDataDirMode };
}
