/**
 * Inbound media files: bytes under DATA_DIR/media, their record in the database. The bytes are written
 * first, straight from the network as they arrive (src/lib/bounded-file.ts), then the record: a record
 * never points at a file that is not there.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { MediaLibrary, MediaPlace, StoredMediaFile } from '../domain/inbound-media.ts';
import { newId } from '../lib/ids.ts';
import type { Database, MediaFilesTable } from './schema.ts';

const fileOf = (row: MediaFilesTable): StoredMediaFile => ({
  id: row.id,
  accountId: row.account_id,
  networkMediaId: row.network_media_id,
  mimeType: row.mime_type,
  size: row.size,
  sha256: row.sha256,
  createdAt: row.created_at,
  location: row.path,
});

export function mediaRepo(db: Kysely<Database>, dataDir: string): MediaLibrary {
  return {
    newPlace(): MediaPlace {
      const id = newId('med');
      const relative = path.join('media', id.slice(-2), id);
      return { id, relative, absolute: path.join(dataDir, relative) };
    },

    /** Records a file already written at `place`; removes the file if the record cannot be written. */
    async record(
      accountId: string,
      networkMediaId: string,
      place: MediaPlace,
      written: { mimeType: string; size: number; sha256: string },
    ): Promise<StoredMediaFile> {
      const row: MediaFilesTable = {
        id: place.id,
        account_id: accountId,
        network_media_id: networkMediaId,
        mime_type: written.mimeType,
        size: written.size,
        sha256: written.sha256,
        path: place.relative,
        created_at: Date.now(),
      };
      try {
        await db.insertInto('media_files').values(row).execute();
      } catch (error) {
        await fs.rm(place.absolute, { force: true });
        throw error;
      }
      return fileOf(row);
    },

    async find(id: string): Promise<StoredMediaFile | undefined> {
      const row = await db.selectFrom('media_files').selectAll().where('id', '=', id).executeTakeFirst();
      return row && fileOf(row);
    },

    /** The account's copies of these network media ids (the portal links a message to its file). */
    async findOfAccountByNetworkIds(
      accountId: string,
      networkMediaIds: readonly string[],
    ): Promise<StoredMediaFile[]> {
      if (networkMediaIds.length === 0) return [];
      const rows = await db
        .selectFrom('media_files')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('network_media_id', 'in', networkMediaIds)
        .execute();
      return rows.map(fileOf);
    },

    absolutePath(file: StoredMediaFile): string {
      return path.join(dataDir, file.location);
    },
  };
}
