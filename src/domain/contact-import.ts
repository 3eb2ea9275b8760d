/**
 * Importing contacts from a CSV file (docs/contacts.md): the header names the columns (`phone`,
 * `user_id`, `name`, `tags` separated by `;`, and any other column an attribute of that name); each row is
 * checked by the rules of an upsert (contacts.ts) and stored, or reported with its line and why. Rows are
 * stored a batch at a time, side by side, so an import keeps the store busy without holding the file.
 */
import { CONTACT_LIMITS, type ContactDeps, type ContactInput, contactChanges } from './contacts.ts';
import { GatewayError } from './errors.ts';
import { ContactKeyTaken } from './ports/contacts.ts';

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
/** Rows stored side by side: enough to keep the store's group commit busy, few enough to hold. */
const BATCH = 200;

const badFile = (message: string) => new GatewayError('invalid_request', message, { field: 'file' });

/** Checks the header before any row is read: every column known or a valid attribute name, once. */
export function checkColumns(columns: string[]): void {
  const names = columns.map((c) => c.trim());
  if (!names.includes('phone') && !names.includes('user_id')) {
    throw badFile('`file`: the first line must name the columns, with `phone` or `user_id` among them');
  }
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
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

async function storeBatch(deps: ContactDeps, accountId: string, batch: ImportRow[], report: ImportReport) {
  const at = (deps.now ?? Date.now)();
  await Promise.all(
    batch.map(async (row) => {
      try {
        const changes = contactChanges(inputOf(row.cells));
        const { created } = await deps.contacts.upsert(accountId, changes, at);
        if (created) report.created++;
        else report.updated++;
      } catch (error) {
        // A row's own fault is reported with its line; anything else is not the file's and stops the import.
        if (error instanceof ContactKeyTaken) {
          const reason = 'its phone and user_id belong to two different contacts of this account';
          report.rejected.push({ line: row.line, reason });
        } else if (error instanceof GatewayError)
          report.rejected.push({ line: row.line, reason: error.message });
        else throw error;
      }
    }),
  );
}

export async function importContacts(
  deps: ContactDeps,
  accountId: string,
  rows: AsyncIterable<ImportRow>,
): Promise<ImportReport> {
  const report: ImportReport = { rows: 0, created: 0, updated: 0, rejected: [] };
  let batch: ImportRow[] = [];
  for await (const row of rows) {
    report.rows++;
    batch.push(row);
    if (batch.length === BATCH) {
      await storeBatch(deps, accountId, batch, report);
      batch = [];
    }
  }
  await storeBatch(deps, accountId, batch, report);
  report.rejected.sort((a, b) => a.line - b.line);
  return report;
}
