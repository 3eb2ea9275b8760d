/**
 * `GET /{v}/{waba-id}/message_templates` (docs/cloud-api.md §4.5): filters `name` (exact), `language`, `category`
 * and `status` (one or several, comma-separated), `limit` (default 25, at most 1000), cursor paging with
 * `after` / `before`. Templates come in creation order; a cursor is the creation position of a template
 * (base64url), so deleting templates between pages skips or repeats nothing.
 */
import type { FastifyRequest } from 'fastify';
import { queryRecord } from '../request-fields.ts';
import type { Json } from '../validate-fields.ts';
import type { TemplateCatalog } from './catalog.ts';
import { templateError } from './errors.ts';
import { projectFields, templateView } from './view.ts';

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 1000;

type Query = Record<string, unknown>;

const encodeCursor = (seq: number) => Buffer.from(`seq:${seq}`).toString('base64url');

function decodeCursor(cursor: unknown, key: string): number | undefined {
  if (cursor === undefined) return undefined;
  const match = /^seq:(\d+)$/.exec(Buffer.from(String(cursor), 'base64url').toString('utf8'));
  if (!match)
    throw templateError(`Parameter '${key}' is not a cursor this list answered.`, 'Invalid parameter');
  return Number(match[1]);
}

const optionalString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function readLimit(value: unknown): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1) {
    throw templateError("Parameter 'limit' must be a positive integer.", 'Invalid parameter');
  }
  return Math.min(limit, MAX_LIMIT);
}

function pageUrl(request: FastifyRequest, query: Query, cursor: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key !== 'after' && key !== 'before' && key !== 'access_token' && typeof value === 'string') {
      params.set(key, value);
    }
  }
  for (const [key, value] of Object.entries(cursor)) params.set(key, value);
  return `${request.protocol}://${request.host}${request.url.split('?')[0]}?${params}`;
}

export function listPage(request: FastifyRequest, catalog: TemplateCatalog, wabaId: string): Json {
  const query = queryRecord(request.query);
  const limit = readLimit(query.limit);
  const after = decodeCursor(query.after, 'after');
  const before = decodeCursor(query.before, 'before');
  const statuses = optionalString(query.status)
    ?.split(',')
    .map((s) => s.trim().toUpperCase());
  const name = optionalString(query.name);
  const language = optionalString(query.language);
  const category = optionalString(query.category)?.toUpperCase();
  const all = catalog.list(wabaId, {
    ...(name ? { name } : {}),
    ...(language ? { language } : {}),
    ...(category ? { category } : {}),
    ...(statuses ? { statuses } : {}),
  });
  const matching = all.filter(
    (t) => (after === undefined || t.seq > after) && (before === undefined || t.seq < before),
  );
  // Paging backwards takes the last `limit` templates before the cursor.
  const page =
    before !== undefined && after === undefined ? matching.slice(-limit) : matching.slice(0, limit);
  const data = page.map((t) => projectFields(templateView(t), query.fields));
  const first = page[0];
  const last = page.at(-1);
  if (!first || !last) return { data, paging: { cursors: { before: '', after: '' } } };
  const cursors = { before: encodeCursor(first.seq), after: encodeCursor(last.seq) };
  const paging: Json = { cursors };
  if (all.some((t) => t.seq > last.seq)) paging.next = pageUrl(request, query, { after: cursors.after });
  if (all.some((t) => t.seq < first.seq))
    paging.previous = pageUrl(request, query, { before: cursors.before });
  return { data, paging };
}
