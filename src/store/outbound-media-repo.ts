/**
 * Media uploaded to send by id (src/domain/outbound-media.ts): records by account, and the spool where an
 * upload waits under DATA_DIR/uploads while it goes on to the network (removed right after).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { OutboundMedia, OutboundMediaStore, Spooled } from '../domain/ports/outbound-media.ts';
import { writeBoundedFile } from '../lib/bounded-file.ts';
import { newId } from '../lib/ids.ts';
import type { Database, OutboundMediaTable } from './schema.ts';

const mediaOf = (row: OutboundMediaTable): OutboundMedia => ({
  id: row.id,
  accountId: row.account_id,
  phone: row.phone,
  networkMediaId: row.network_media_id,
  mediaType: row.media_type,
  mimeType: row.mime_type,
  size: Number(row.size),
  createdAt: Number(row.created_at),
});

class OutboundMediaRepository implements OutboundMediaStore {
  readonly #db: Kysely<Database>;
  readonly #spoolDir: string;

  constructor(db: Kysely<Database>, dataDir: string) {
    this.#db = db;
    this.#spoolDir = path.join(dataDir, 'uploads');
  }

  async spool(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Spooled> {
    const file = path.join(this.#spoolDir, newId('upl'));
    const written = await writeBoundedFile(source, file, maxBytes, { drain: true });
    return written.ok ? { ok: true, path: file, size: written.size } : written;
  }

  async discard(file: string): Promise<void> {
    await fs.rm(file, { force: true });
  }

  async discardStale(before: number): Promise<number> {
    const names = await fs.readdir(this.#spoolDir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.#spoolDir, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (stat?.isFile() && stat.mtimeMs < before) {
        await fs.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  async insertOutboundMedia(media: OutboundMedia): Promise<void> {
    await this.#db
      .insertInto('outbound_media')
      .values({
        id: media.id,
        account_id: media.accountId,
        phone: media.phone,
        network_media_id: media.networkMediaId,
        media_type: media.mediaType,
        mime_type: media.mimeType,
        size: media.size,
        created_at: media.createdAt,
      })
      .execute();
  }

  async findOutboundMedia(accountId: string, id: string): Promise<OutboundMedia | undefined> {
    const row = await this.#db
      .selectFrom('outbound_media')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && mediaOf(row);
  }

  async deleteOutboundMedia(accountId: string, id: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('outbound_media')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

export function outboundMediaRepo(db: Kysely<Database>, dataDir: string): OutboundMediaStore {
  return new OutboundMediaRepository(db, dataDir);
}
