/**
 * Runs the migrations in order, on SQLite or PostgreSQL. The list is static (no directory scanning) so the
 * set of migrations is visible in code review and works the same from any working directory.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as core from './migrations/2026-11-22-001-core.ts';

const migrations: Record<string, Migration> = {
  '2026-11-22-001-core': core,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  // Kysely's migrator takes a lock (an advisory lock on PostgreSQL), so nodes starting together are safe.
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
