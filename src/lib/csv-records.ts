/**
 * The records of a CSV file as they arrive (csv-parse, streamed: a file of a million rows never sits in
 * memory), each with the line it ends on, so that a refusal can name it. The first line names the
 * columns; a byte-order mark is dropped, cells are trimmed, empty lines skipped, and a row with more or
 * fewer cells than the header is still handed on, for its reader to judge. A record or a header past the
 * limits below throws, naming them.
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';

/**
 * The most characters one record (a line, or several within quotes) may hold, and the most columns a header
 * may name: a contact's fifty attributes of a thousand characters each fit several times over, while a
 * line of millions of characters or a header of a hundred thousand columns is refused as it arrives,
 * before anything looks at it column by column.
 */
export const CSV_MAX_RECORD_CHARS = 256 * 1024;
export const CSV_MAX_COLUMNS = 1000;

/** The first column name that appeared before in a header, found in one pass. */
export function firstRepeated(names: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

export interface CsvRecord {
  /** Cell by column name; a cell the row lacks is absent. */
  cells: Record<string, string>;
  /** The line of the file the record ends on, from 1 (the header is line 1). */
  line: number;
}

/** The header's column names, then the records; a file that is not CSV throws, naming the line. */
export async function* csvRecords(source: AsyncIterable<Uint8Array>): AsyncGenerator<CsvRecord | string[]> {
  const input = Readable.from(source);
  const parser = input.pipe(
    parse({
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
      max_record_size: CSV_MAX_RECORD_CHARS,
    }),
  );
  // However reading ends (the file's end, a refusal, a reader that stops), the source is let go: a pipe
  // leaves its source paused when its destination fails, and an upload's body would stay unread.
  try {
    yield* recordsOf(parser as AsyncIterable<{ record: string[]; info: { lines: number } }>);
  } finally {
    input.destroy();
  }
}

async function* recordsOf(
  parser: AsyncIterable<{ record: string[]; info: { lines: number } }>,
): AsyncGenerator<CsvRecord | string[]> {
  let header: string[] | undefined;
  for await (const { record, info } of parser) {
    if (!header) {
      if (record.length > CSV_MAX_COLUMNS)
        throw new Error(`the first line names ${record.length} columns; at most ${CSV_MAX_COLUMNS} are read`);
      header = record;
      yield header;
      continue;
    }
    const cells: Record<string, string> = {};
    header.forEach((name, i) => {
      const value = record[i];
      if (value !== undefined && value !== '') cells[name] = value;
    });
    yield { cells, line: info.lines };
  }
}
