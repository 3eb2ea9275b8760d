/**
 * An account's contacts (docs/contacts.md): the people it messages, known by phone number and/or
 * business-scoped user id, with a name, custom attributes (JSON) and tags (a table of their own, so that
 * a list by tag is an index lookup on both stores).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('contacts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('user_id', 'text')
    .addColumn('name', 'text')
    .addColumn('attributes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // One contact per phone number and per user id in an account; either may be unknown.
  await db.schema
    .createIndex('contacts_account_phone')
    .on('contacts')
    .columns(['account_id', 'phone'])
    .unique()
    .where(sql.ref('phone'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('contacts_account_user_id')
    .on('contacts')
    .columns(['account_id', 'user_id'])
    .unique()
    .where(sql.ref('user_id'), 'is not', null)
    .execute();
  await db.schema
    .createTable('contact_tags')
    .addColumn('contact_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('tag', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_tags_pk', ['contact_id', 'tag'])
    .execute();
  await db.schema
    .createIndex('contact_tags_by_tag')
    .on('contact_tags')
    .columns(['account_id', 'tag', 'contact_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('contact_tags').execute();
  await db.schema.dropTable('contacts').execute();
}
