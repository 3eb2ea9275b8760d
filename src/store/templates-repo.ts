/**
 * Message templates of an account and the files uploaded for their headers (src/domain/ports/templates.ts).
 * Every read that a client can cause is scoped by account; `findByNetworkId` is unscoped because the
 * network's review webhooks carry only the template's id.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Kysely, sql, type Transaction } from 'kysely';
import type {
  MediaWrite,
  Template,
  TemplateFilters,
  TemplateMedia,
  TemplateReview,
  TemplatesStore,
} from '../domain/ports/templates.ts';
import { writeBoundedFile } from '../lib/bounded-file.ts';
import type { Dialect } from './connect.ts';
import type { Database, TemplateMediaTable, TemplatesTable } from './schema.ts';
import { mediaOf, rejectionInfoOf, rowOfTemplate, templateOf } from './template-rows.ts';
import { insertEvent } from './webhooks-repo.ts';

/** A new header file's place under DATA_DIR (`token` becomes part of its handle). */
export interface TemplateMediaPlace {
  token: string;
  relative: string;
  absolute: string;
}

/** The store's side of header files: where a new one goes, and its record once its bytes are written. */
export interface TemplateMediaFiles {
  newMediaPlace(): TemplateMediaPlace;
  recordMedia(
    accountId: string,
    place: TemplateMediaPlace,
    written: { mimeType: string; size: number; sha256: string },
  ): Promise<TemplateMedia>;
}

const found = (row: TemplatesTable | undefined) => row && templateOf(row);

/** How a template's events name it (docs/webhooks.md). */
const namedIn = (row: TemplatesTable) => ({ id: row.id, name: row.name, language: row.language });

/**
 * The network's verdict on a stored template, with its `template.status` event: null when nothing changed,
 * undefined when no template has that id.
 */
async function applyReviewTo(
  trx: Transaction<Database>,
  id: string,
  review: TemplateReview,
): Promise<{ template: Template; eventId: string | null } | null | undefined> {
  const row = await trx.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const info = review.info && JSON.stringify(review.info);
  if (row.status === review.status && row.rejected_reason === review.reason && row.rejection_info === info)
    return null;
  // A verdict on what was under review starts its rating afresh; a pause or a reinstatement keeps the
  // rating the network gave (message_template_quality_update), which is often why it was paused.
  const quality =
    row.status === 'PENDING'
      ? JSON.stringify({ score: 'UNKNOWN', date: String(Math.floor(review.at / 1000)) })
      : row.quality_score;
  await trx
    .updateTable('templates')
    .set({
      status: review.status,
      rejected_reason: review.reason,
      rejection_info: info,
      quality_score: quality,
      updated_at: review.at,
    })
    .where('id', '=', id)
    .execute();
  const data = { ...namedIn(row), status: review.status, reason: review.reason };
  const eventId = await insertEvent(trx, row.account_id, 'template.status', data, review.at);
  const now = { ...row, status: review.status, rejected_reason: review.reason, rejection_info: info };
  return { template: templateOf(now), eventId };
}

class TemplatesRepository implements TemplatesStore, TemplateMediaFiles {
  readonly #db: Kysely<Database>;
  readonly #dataDir: string;
  readonly #dialect: Dialect;

  constructor(db: Kysely<Database>, dataDir: string, dialect: Dialect) {
    this.#db = db;
    this.#dataDir = dataDir;
    this.#dialect = dialect;
  }

  /**
   * A verdict and the create of the same template wait for each other, so that one of them always sees
   * what the other wrote (on PostgreSQL, neither would see the other's uncommitted row; SQLite has one
   * writer at a time already).
   */
  async #lockTemplate(trx: Transaction<Database>, id: string): Promise<void> {
    if (this.#dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext(${`template:${id}`}))`.execute(trx);
  }

  async insert(template: Template): Promise<{ template: Template; eventId: string | null }> {
    return this.#db.transaction().execute(async (trx) => {
      await trx.insertInto('templates').values(rowOfTemplate(template)).execute();
      await this.#lockTemplate(trx, template.id);
      const early = await trx
        .deleteFrom('early_template_reviews')
        .where('template_id', '=', template.id)
        .returningAll()
        .executeTakeFirst();
      if (!early) return { template, eventId: null };
      const review = { ...early, info: rejectionInfoOf(early.rejection_info) };
      const applied = await applyReviewTo(trx, template.id, review);
      return applied ?? { template, eventId: null };
    });
  }

  async findOfAccount(accountId: string, id: string): Promise<Template | undefined> {
    return found(
      await this.#db
        .selectFrom('templates')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst(),
    );
  }

  async findByNetworkId(id: string): Promise<Template | undefined> {
    return found(await this.#db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst());
  }

  async findByName(accountId: string, phone: string, name: string, language: string) {
    const row = await this.#db
      .selectFrom('templates')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('phone', '=', phone)
      .where('name', '=', name)
      .where('language', '=', language)
      .executeTakeFirst();
    return found(row);
  }

  async list(accountId: string, phone: string, filters: TemplateFilters = {}): Promise<Template[]> {
    let query = this.#db
      .selectFrom('templates')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('phone', '=', phone);
    if (filters.status) query = query.where('status', '=', filters.status);
    if (filters.name) query = query.where('name', '=', filters.name);
    if (filters.language) query = query.where('language', '=', filters.language);
    return (await query.orderBy('created_at', 'desc').orderBy('id').execute()).map(templateOf);
  }

  async remove(accountId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#db
      .deleteFrom('templates')
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
  }

  /**
   * An accepted edit: new content, back to PENDING (the network reviews it again), and its
   * `template.status` event, together.
   */
  async recordEdit(
    accountId: string,
    id: string,
    edit: { category: string; components: string; editTimes: number[]; at: number },
  ): Promise<string | null> {
    return this.#db.transaction().execute(async (trx) => {
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
      const data = { ...namedIn(row), status: 'PENDING', reason: 'NONE' };
      return insertEvent(trx, accountId, 'template.status', data, edit.at);
    });
  }

  /**
   * Records the network's verdict and its event together. A verdict for a template that was deleted in the
   * meantime, or one that repeats the current status, changes nothing (the network may deliver twice).
   */
  async applyReview(
    id: string,
    review: TemplateReview,
  ): Promise<{ template: Template; eventId: string | null } | null> {
    return this.#db.transaction().execute(async (trx) => {
      await this.#lockTemplate(trx, id);
      const applied = await applyReviewTo(trx, id, review);
      if (applied !== undefined) return applied;
      // Not stored (yet): the create that asked for it may still be recording it, and takes it from here.
      const verdict = {
        status: review.status,
        reason: review.reason,
        rejection_info: review.info && JSON.stringify(review.info),
        at: review.at,
      };
      await trx
        .insertInto('early_template_reviews')
        .values({ template_id: id, ...verdict })
        .onConflict((c) =>
          c.column('template_id').doUpdateSet(verdict).where('early_template_reviews.at', '<=', review.at),
        )
        .execute();
      return null;
    });
  }

  async applyCategory(
    id: string,
    change: { category: string; at: number },
  ): Promise<{ eventId: string | null } | null> {
    return this.#db.transaction().execute(async (trx) => {
      await this.#lockTemplate(trx, id);
      const row = await trx.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row || row.category === change.category) return null;
      await trx
        .updateTable('templates')
        .set({ category: change.category, updated_at: change.at })
        .where('id', '=', id)
        .execute();
      const data = { ...namedIn(row), category: change.category, previousCategory: row.category };
      return { eventId: await insertEvent(trx, row.account_id, 'template.category', data, change.at) };
    });
  }

  async applyQuality(id: string, change: { score: string; at: number }): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      await this.#lockTemplate(trx, id);
      const row = await trx
        .selectFrom('templates')
        .select('quality_score')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row || (JSON.parse(row.quality_score) as { score?: string }).score === change.score) return false;
      // The listing's shape (docs/contract.md §5): the score and when it was given, in Unix seconds.
      const quality = JSON.stringify({ score: change.score, date: String(Math.floor(change.at / 1000)) });
      await trx.updateTable('templates').set({ quality_score: quality }).where('id', '=', id).execute();
      return true;
    });
  }

  /** A new header file's place under DATA_DIR, before anything is written there or recorded. */
  newMediaPlace(): TemplateMediaPlace {
    const token = randomBytes(18).toString('base64url');
    const relative = path.join('template-media', token.slice(0, 2), token);
    return { token, relative, absolute: path.join(this.#dataDir, relative) };
  }

  /**
   * Records a file already written at `place` (the bytes first, then the record: a handle never names
   * a file that is not there); removes the file if the record cannot be written.
   */
  async recordMedia(
    accountId: string,
    place: TemplateMediaPlace,
    written: { mimeType: string; size: number; sha256: string },
  ): Promise<TemplateMedia> {
    // Shaped like the network's resumable-upload handles (docs/cloud-api.md §5.4: `4::<opaque>`).
    const opaque = Buffer.from(`${written.mimeType}:${place.token}`).toString('base64url');
    const row: TemplateMediaTable = {
      handle: `4::${opaque}`,
      account_id: accountId,
      mime_type: written.mimeType,
      size: written.size,
      sha256: written.sha256,
      path: place.relative,
      created_at: Date.now(),
    };
    try {
      await this.#db.insertInto('template_media').values(row).execute();
    } catch (error) {
      await fs.rm(place.absolute, { force: true });
      throw error;
    }
    return mediaOf(row);
  }

  async writeMedia(
    accountId: string,
    source: AsyncIterable<Uint8Array>,
    maxBytes: number,
    mimeType: string,
  ): Promise<MediaWrite> {
    const place = this.newMediaPlace();
    const written = await writeBoundedFile(source, place.absolute, maxBytes, { drain: true });
    if (!written.ok) return written;
    return { ok: true, media: await this.recordMedia(accountId, place, { mimeType, ...written }) };
  }

  /** Forgets a header file: the record first (no handle may name a missing file), then the bytes. */
  async removeMedia(accountId: string, handle: string): Promise<void> {
    const row = await this.#db
      .deleteFrom('template_media')
      .where('account_id', '=', accountId)
      .where('handle', '=', handle)
      .returning('path')
      .executeTakeFirst();
    if (row) await fs.rm(path.join(this.#dataDir, row.path), { force: true });
  }

  /** Bytes of header files the account keeps: what its storage quota counts. */
  async mediaBytesOfAccount(accountId: string): Promise<number> {
    const row = await this.#db
      .selectFrom('template_media')
      .select((eb) => eb.fn.sum<number | string | bigint | null>('size').as('total'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  async findMedia(accountId: string, handle: string): Promise<TemplateMedia | undefined> {
    const row = await this.#db
      .selectFrom('template_media')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('handle', '=', handle)
      .executeTakeFirst();
    return row && mediaOf(row);
  }
}

export function templatesRepo(
  db: Kysely<Database>,
  dataDir: string,
  dialect: Dialect,
): TemplatesStore & TemplateMediaFiles {
  return new TemplatesRepository(db, dataDir, dialect);
}
