/**
 * Importing contacts from a CSV file (docs/contacts.md): the header names the columns (`phone`,
 * `user_id`, `name`, `tags` separated by `;`, and any other column an attribute of that name); each row is
 * checked by the rules of an upsert (contacts.ts) and stored, or reported with its line and why. Rows are
 * stored a batch at a time in one transaction (src/store/contacts-batch.ts), so an import neither holds
 * the file nor runs statements row by row.
 */
import { firstRepeated } from '../lib/csv-records.ts';
import { CONTACT_LIMITS, type ContactDeps, type ContactInput, contactChanges } from './contacts.ts';
import { GatewayError } from './errors.ts';
import { type ContactChanges, ContactKeyTaken } from './ports/contacts.ts';

export interface ImportReport {
  rows: number;
  created: number;
  updated: number;
  rejected: { line: number; reason: string }[];
}

/** A row of the file: its cells by column name, and the line it ends on. */
export interface ImportRow {
  cells: Record<string, string>;
  line: number;
}

const KNOWN = ['phone', 'user_id', 'name', 'tags'];
const ATTRIBUTE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** Rows stored together: few statements per row, few enough rows to hold. */
const BATCH = 500;

const badFile = (message: string) => new GatewayError('invalid_request', message, { field: 'file' });

/** Checks the header before any row is read: every column known or a valid attribute name, once. */
export function checkColumns(columns: string[]): void {
  const names = columns.map((c) => c.trim());
  if (!names.includes('phone') && !names.includes('user_id')) {
    throw badFile('`file`: the first line must name the columns, with `phone` or `user_id` among them');
  }
  if (names.length > KNOWN.length + CONTACT_LIMITS.attributes) {
    throw badFile(`\`file\` may have at most ${CONTACT_LIMITS.attributes} attribute columns`);
  }
  const repeated = firstRepeated(names);
  if (repeated !== undefined) throw badFile(`\`file\`: the column "${repeated}" appears twice`);
  const bad = names.find((n) => !KNOWN.includes(n) && !ATTRIBUTE.test(n));
  if (bad !== undefined) {
    throw badFile(
      `\`file\`: the column "${bad}" is neither phone, user_id, name nor tags, nor an attribute name (1 to 64 letters, digits and _, starting with a letter)`,
    );
  }
  if (names.length - names.filter((n) => KNOWN.includes(n)).length > CONTACT_LIMITS.attributes) {
    throw badFile(`\`file\` may have at most ${CONTACT_LIMITS.attributes} attribute columns`);
  }
}

function inputOf(cells: Record<string, string>): ContactInput {
  const { phone, user_id: userId, name, tags, ...attributes } = cells;
  return {
    ...(phone !== undefined ? { phone } : {}),
    ...(userId !== undefined ? { userId } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(tags !== undefined ? { tags: tags.split(';').filter((t) => t.trim() !== '') } : {}),
    ...(Object.keys(attributes).length ? { attributes } : {}),
  };
}

const TAKEN = 'its phone and user_id belong to two different contacts of this account';

/** One by one: a batch a concurrent writer got into, stored as single upserts would be. */
async function storeOneByOne(deps: ContactDeps, accountId: string, rows: CheckedRow[], report: ImportReport) {
  const at = (deps.now ?? Date.now)();
  for (const row of rows) {
    try {
      const { created } = await deps.contacts.upsert(accountId, row.changes, at);
      if (created) report.created++;
      else report.updated++;
    } catch (error) {
      if (!(error instanceof ContactKeyTaken)) throw error;
      report.rejected.push({ line: row.line, reason: TAKEN });
    }
  }
}

interface CheckedRow {
  line: number;
  changes: ContactChanges;
}

/** The rows of a batch checked by the rules of an upsert; a row's own fault is reported with its line. */
function checkBatch(batch: ImportRow[], report: ImportReport): CheckedRow[] {
  const checked: CheckedRow[] = [];
  for (const row of batch) {
    try {
      checked.push({ line: row.line, changes: contactChanges(inputOf(row.cells)) });
    } catch (error) {
      // Anything that is not the row's fault is not the file's either, and stops the import.
      if (!(error instanceof GatewayError)) throw error;
      report.rejected.push({ line: row.line, reason: error.message });
    }
  }
  return checked;
}

async function storeChecked(
  deps: ContactDeps,
  accountId: string,
  checked: CheckedRow[],
  report: ImportReport,
) {
  if (checked.length === 0) return;
  const at = (deps.now ?? Date.now)();
  const outcomes = await deps.contacts.upsertMany(
    accountId,
    checked.map((r) => r.changes),
    at,
  );
  if (!outcomes) return storeOneByOne(deps, accountId, checked, report);
  outcomes.forEach((outcome, i) => {
    if (outcome === 'created') report.created++;
    else if (outcome === 'updated') report.updated++;
    else report.rejected.push({ line: checked[i]!.line, reason: TAKEN });
  });
}

/**
 * The phone numbers of a batch whose rows name their contact by phone alone; null when a row names a
 * user id. Two such batches with no number in common touch different contacts, whatever the store holds.
 */
function phonesOnly(checked: CheckedRow[]): Set<string> | null {
  const phones = new Set<string>();
  for (const { changes } of checked) {
    if (changes.userId !== undefined || changes.phone === undefined) return null;
    phones.add(changes.phone);
  }
  return phones;
}

/** Batches stored at once, at most: one being written while the next is sent to the database. */
const IN_FLIGHT = 2;

/**
 * Stores checked batches in the file's order, two at a time when that cannot change the outcome: the
 * gateway's part of a batch (checking, building statements) and the database's then overlap, where one
 * after another each waits for the other. Two batches go together only when both name their contacts by
 * phone alone and share no number; otherwise the later one waits, so that a person in two batches is
 * changed in the file's order.
 */
function batchStore(deps: ContactDeps, accountId: string, report: ImportReport) {
  const inFlight: { done: Promise<void>; phones: Set<string> | null }[] = [];
  const settle = async (keep: number) => {
    while (inFlight.length > keep) await inFlight.shift()!.done;
  };
  return {
    async add(checked: CheckedRow[]) {
      const phones = phonesOnly(checked);
      const apart = (other: Set<string> | null) =>
        phones !== null && other !== null && ![...phones].some((p) => other.has(p));
      await settle(inFlight.every((b) => apart(b.phones)) ? IN_FLIGHT - 1 : 0);
      const done = storeChecked(deps, accountId, checked, report);
      // Its failure is thrown where it is awaited, by a later batch or at the end; until then it is not
      // unhandled.
      done.catch(() => undefined);
      inFlight.push({ done, phones });
    },
    finish: () => settle(0),
  };
}

export async function importContacts(
  deps: ContactDeps,
  accountId: string,
  rows: AsyncIterable<ImportRow>,
): Promise<ImportReport> {
  const report: ImportReport = { rows: 0, created: 0, updated: 0, rejected: [] };
  const store = batchStore(deps, accountId, report);
  let batch: ImportRow[] = [];
  // The next batch is read while those before it are stored.
  for await (const row of rows) {
    report.rows++;
    batch.push(row);
    if (batch.length === BATCH) {
      await store.add(checkBatch(batch, report));
      batch = [];
    }
  }
  await store.add(checkBatch(batch, report));
  await store.finish();
  report.rejected.sort((a, b) => a.line - b.line);
  return report;
}
