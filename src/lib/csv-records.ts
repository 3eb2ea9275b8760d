/**
 * The records of a CSV file as they arrive (csv-parse, streamed: a file of a million rows never sits in
 * memory), each with the line it ends on, so that a refusal can name it. The first line names the
 * columns; a byte-order mark is dropped, cells are trimmed, empty lines skipped, and a row with more or
 * fewer cells than the header is still handed on, for its reader to judge.
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';

export interface CsvRecord {
  /** Cell by column name; a cell the row lacks is absent. */
  cells: Record<string, string>;
  /** The line of the file the record ends on, from 1 (the header is line 1). */
  line: number;
}

/** The header's column names, then the records; a file that is not CSV throws, naming the line. */
export async function* csvRecords(source: AsyncIterable<Uint8Array>): AsyncGenerator<CsvRecord | string[]> {
  const parser = Readable.from(source).pipe(
    parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }),
  );
  let header: string[] | undefined;
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number };
  }>) {
    if (!header) {
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
