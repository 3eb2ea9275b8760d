/** Inbound media files: bytes under DATA_DIR/media, their record in the database. */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { newId } from '../domain/ids.ts';
import { makePrivateDir, writePrivateFile } from './private-files.ts';
import type { Database, MediaFilesTable } from './schema.ts';

export type MediaFile = MediaFilesTable;

export function mediaRepo(db: Kysely<Database>, dataDir: string) {
  return {
    /** Writes the bytes first, then the record: a record never points at a file that is not there. */
    async store(
      accountId: string,
      networkMediaId: string,
      mimeType: string,
      bytes: Buffer,
    ): Promise<MediaFile> {
      const id = newId('med');
      const relative = path.join('media', id.slice(-2), id);
      const absolute = path.join(dataDir, relative);
      await makePrivateDir(path.dirname(absolute));
      await writePrivateFile(absolute, bytes);
      const row: MediaFile = {
        id,
        account_id: accountId,
        network_media_id: networkMediaId,
        mime_type: mimeType,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        path: relative,
        created_at: Date.now(),
      };
      await db.insertInto('media_files').values(row).execute();
      return row;
    },

    find(id: string): Promise<MediaFile | undefined> {
      return db.selectFrom('media_files').selectAll().where('id', '=', id).executeTakeFirst();
    },

    absolutePath(file: MediaFile): string {
      return path.join(dataDir, file.path);
    },
  };
}

export type MediaRepo = ReturnType<typeof mediaRepo>;
