/**
 * Verdicts on templates that arrive before the template is stored (src/store/templates-repo.ts,
 * `applyReview`): the network may post its verdict while the create that asked for it is still being
 * recorded. The verdict waits here, keyed by the network's template id, and the create applies it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('early_template_reviews')
    .addColumn('template_id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('early_template_reviews').execute();
}
