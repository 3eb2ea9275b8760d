/**
 * `inbound_messages.handled_at`: when a message was handled to the end, i.e. its account assigned and its
 * `message.received` event written in one transaction (or it was found to be nobody's). A stored message
 * without it was interrupted after storing; the network's redelivery completes it
 * (docs/adr/0018-inbound-messages-completed-on-redelivery.md).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('inbound_messages').addColumn('handled_at', 'bigint').execute();
  // A message with an account was published (the account and the event were written together). One
  // without may be nobody's or may have been interrupted: left open, a redelivery completes it, and for
  // a message that is nobody's, completing again finds nobody again.
  await sql`update inbound_messages set handled_at = received_at where account_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('inbound_messages').dropColumn('handled_at').execute();
}
