/**
 * Message templates of an account and the files uploaded for their headers. Every read that a client can
 * cause is scoped by account; `findByNetworkId` is unscoped because the network's review webhooks carry
 * only the template's id.
 */
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { makePrivateDir, writePrivateFile } from './private-files.ts';
import type { Database, TemplateMediaTable, TemplatesTable } from './schema.ts';
import { insertEvent } from './webhooks-repo.ts';

export type TemplateRow = TemplatesTable;
export type TemplateMediaRow = TemplateMediaTable;

export interface TemplateFilters {
  status?: string;
  name?: string;
  language?: string;
}

/** What the network said about a template, applied with its `template.status` event in one transaction. */
export interface TemplateReview {
  status: string;
  reason: string;
  at: number;
}

export function templatesRepo(db: Kysely<Database>, dataDir: string) {
  return {
    async insert(row: TemplateRow): Promise<void> {
      await db.insertInto('templates').values(row).execute();
    },

    findOfAccount(accountId: string, id: string): Promise<TemplateRow | undefined> {
      return db
        .selectFrom('templates')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    findByNetworkId(id: string): Promise<TemplateRow | undefined> {
      return db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findByName(accountId: string, phone: string, name: string, language: string) {
      return db
        .selectFrom('templates')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('phone', '=', phone)
        .where('name', '=', name)
        .where('language', '=', language)
        .executeTakeFirst();
    },

    list(accountId: string, phone: string, filters: TemplateFilters = {}): Promise<TemplateRow[]> {
      let query = db
        .selectFrom('templates')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('phone', '=', phone);
      if (filters.status) query = query.where('status', '=', filters.status);
      if (filters.name) query = query.where('name', '=', filters.name);
      if (filters.language) query = query.where('language', '=', filters.language);
      return query.orderBy('created_at', 'desc').orderBy('id').execute();
    },

    async remove(accountId: string, ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.deleteFrom('templates').where('account_id', '=', accountId).where('id', 'in', ids).execute();
    },

    /**
     * An accepted edit: new content, back to PENDING (the network reviews it again), and its
     * `template.status` event, together.
     */
    async recordEdit(
      accountId: string,
      id: string,
      edit: { category: string; components: string; editTimes: number[]; at: number },
    ): Promise<string | null> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('templates')
          .selectAll()
          .where('account_id', '=', accountId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!row) return null;
        await trx
          .updateTable('templates')
          .set({
            category: edit.category,
            components: edit.components,
            edit_times: JSON.stringify(edit.editTimes),
            status: 'PENDING',
            rejected_reason: 'NONE',
            updated_at: edit.at,
          })
          .where('id', '=', id)
          .execute();
        const data = { id, name: row.name, language: row.language, status: 'PENDING', reason: 'NONE' };
        return insertEvent(trx, accountId, 'template.status', data, edit.at);
      });
    },

    /**
     * Records the network's verdict and its event together. A verdict for a template that was deleted in the
     * meantime, or one that repeats the current status, changes nothing (the network may deliver twice).
     */
    async applyReview(
      id: string,
      review: TemplateReview,
    ): Promise<{ row: TemplateRow; eventId: string | null } | null> {
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
        if (!row || (row.status === review.status && row.rejected_reason === review.reason)) return null;
        const quality = JSON.stringify({ score: 'UNKNOWN', date: String(Math.floor(review.at / 1000)) });
        await trx
          .updateTable('templates')
          .set({
            status: review.status,
            rejected_reason: review.reason,
            quality_score: quality,
            updated_at: review.at,
          })
          .where('id', '=', id)
          .execute();
        const data = {
          id: row.id,
          name: row.name,
          language: row.language,
          status: review.status,
          reason: review.reason,
        };
        const eventId = await insertEvent(trx, row.account_id, 'template.status', data, review.at);
        return { row: { ...row, status: review.status, rejected_reason: review.reason }, eventId };
      });
    },

    /** Writes the bytes first, then the record: a handle never names a file that is not there. */
    async storeMedia(accountId: string, mimeType: string, bytes: Buffer): Promise<TemplateMediaRow> {
      const token = randomBytes(18).toString('base64url');
      const relative = path.join('template-media', token.slice(0, 2), token);
      const absolute = path.join(dataDir, relative);
      await makePrivateDir(path.dirname(absolute));
      await writePrivateFile(absolute, bytes);
      // Shaped like the network's resumable-upload handles (reference §5.4: `4::<opaque>`).
      const row: TemplateMediaRow = {
        handle: `4::${Buffer.from(`${mimeType}:${token}`).toString('base64url')}`,
        account_id: accountId,
        mime_type: mimeType,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        path: relative,
        created_at: Date.now(),
      };
      await db.insertInto('template_media').values(row).execute();
      return row;
    },

    findMedia(accountId: string, handle: string): Promise<TemplateMediaRow | undefined> {
      return db
        .selectFrom('template_media')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('handle', '=', handle)
        .executeTakeFirst();
    },
  };
}

export type TemplatesRepo = ReturnType<typeof templatesRepo>;
