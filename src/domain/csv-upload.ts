/**
 * A CSV file uploaded as the multipart part `file` (a contact import, a campaign's audience), through the
 * API or the portal: its rows as they arrive, after its header passed `checkColumns`; a file that is not
 * CSV, or is empty, is a 400 naming `file`, with csv-parse's own words for where it broke.
 */

import { type CsvRecord, csvRecords } from '../lib/csv-records.ts';
import { GatewayError } from './errors.ts';

/** The largest file either upload takes. */
export const CSV_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

const badFile = (message: string) => new GatewayError('invalid_request', message, { field: 'file' });

export async function* csvUploadRows(
  source: AsyncIterable<Uint8Array>,
  checkColumns: (columns: string[]) => void,
): AsyncGenerator<CsvRecord> {
  let header = false;
  try {
    for await (const item of csvRecords(source)) {
      if (Array.isArray(item)) {
        checkColumns(item);
        header = true;
      } else yield item;
    }
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw badFile(`\`file\` is not a readable CSV file: ${(error as Error).message}`);
  }
  if (!header) throw badFile('`file` is empty: its first line must name the columns');
}
