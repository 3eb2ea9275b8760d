/**
 * Kysely's PostgreSQL dialect, confined to the connection's current schema: the gateway's tables all live
 * there (DATABASE_URL's search_path, docs/configuration.md), and other schemas of the same database
 * (other applications, other installs, a test server's) neither slow nor hold up its start
 * (docs/adr/0036-postgres-store-confined-to-its-schema.md).
 *
 * - Introspection reads only the current schema. The migrator asks for the tables of the database to learn
 *   whether its bookkeeping tables exist, several times at every start. Kysely's own PostgreSQL
 *   introspection answers with every column of every table of every schema the role can use, computing
 *   each column's serial sequence: 100 to 390 ms a read with a few hundred schemas, on each start of each
 *   node.
 * - The migration lock is the current schema's. Kysely's is one advisory lock for the whole database, so
 *   installs in different schemas waited for each other's migrations; nodes of one install still take
 *   turns.
 */
import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type DialectAdapter,
  type Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

interface ColumnRow {
  schema: string;
  table: string;
  kind: string;
  column: string;
  type: string;
  typeSchema: string;
  notNull: boolean;
  hasDefault: boolean;
  autoIncrementing: boolean;
  comment: string | null;
}

class CurrentSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #schemas: PostgresIntrospector;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
    // Listing schema names is one small read of pg_namespace: left to Kysely.
    this.#schemas = new PostgresIntrospector(db);
  }

  getSchemas(): Promise<SchemaMetadata[]> {
    return this.#schemas.getSchemas();
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }) {
    // A column is auto-incrementing when it is an identity or its default draws from a sequence, as
    // Kysely's own introspection says, without a catalog lookup per column.
    const { rows } = await sql<ColumnRow>`
      select ns.nspname as schema, c.relname as table, c.relkind as kind, a.attname as column,
        typ.typname as type, tns.nspname as "typeSchema", a.attnotnull as "notNull",
        a.atthasdef as "hasDefault",
        (a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false))
          as "autoIncrementing",
        col_description(a.attrelid, a.attnum) as comment
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid
      join pg_catalog.pg_type typ on typ.oid = a.atttypid
      join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
      left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
        and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`.execute(this.#db);
    const internal = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && internal.has(row.table)) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.kind === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.typeSchema,
        isNullable: !row.notNull,
        hasDefaultValue: row.hasDefault,
        isAutoIncrementing: row.autoIncrementing,
        comment: row.comment ?? undefined,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** Nodes migrating one schema take turns; a session lock, held while the migrator runs, as Kysely's. */
class CurrentSchemaPostgresAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    // An hour's lock_timeout, as Kysely sets it: a long migration of another node is waited for.
    await sql`
      with set_timeout as (select set_config('lock_timeout', '3600000', true) as config_val)
      select pg_advisory_lock(hashtext(${MIGRATION_LOCK} || current_schema())) from set_timeout`.execute(db);
  }

  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`select pg_advisory_unlock(hashtext(${MIGRATION_LOCK} || current_schema()))`.execute(db);
  }
}

const MIGRATION_LOCK = 'switchboard migrations of schema ';

/** PostgreSQL as Kysely speaks it, confined to the current schema (the file's comment says why). */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createAdapter(): DialectAdapter {
    return new CurrentSchemaPostgresAdapter();
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
