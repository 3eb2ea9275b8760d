/**
 * /app/messages.csv: the message log as the search on /app/messages keeps it (the same tab, number,
 * status and days), every row, newest first, read a page at a time so a long log never sits in memory.
 * Cells are written so a spreadsheet never reads them as formulas (src/lib/csv-cell.ts).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import { messageSummary } from '../../domain/message-summary.ts';
import type { LogFilters } from '../../domain/ports/message-log.ts';
import { withOwnTemplateNames } from '../../domain/templates/sandbox-names.ts';
import { csvCell } from '../../lib/csv-cell.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { readSearch } from './log-search.ts';

/** Rows read per page of the log. */
const CSV_PAGE = 500;

const line = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\n`;
const iso = (ms: number) => new Date(ms).toISOString();

async function* sentCsv(deps: PortalDeps, accountId: string, filters: LogFilters): AsyncGenerator<string> {
  yield line(['sentAt', 'to', 'messageId', 'kind', 'message', 'status']);
  for (let offset = 0; ; offset += CSV_PAGE) {
    const page = await deps.messageLog.listSent(accountId, filters, offset, CSV_PAGE);
    yield page.rows
      .map((m) =>
        line([
          iso(m.createdAt),
          `+${m.toPhone}`,
          m.clientMessageId,
          m.kind,
          withOwnTemplateNames(messageSummary(m.kind, m.content), accountId),
          m.status,
        ]),
      )
      .join('');
    if (!page.hasMore) return;
  }
}

async function* receivedCsv(
  deps: PortalDeps,
  accountId: string,
  filters: LogFilters,
): AsyncGenerator<string> {
  yield line(['receivedAt', 'from', 'profileName', 'to', 'type', 'message']);
  for (let offset = 0; ; offset += CSV_PAGE) {
    const page = await deps.messageLog.listReceived(accountId, filters, offset, CSV_PAGE);
    yield page.rows
      .map((m) =>
        line([
          iso(m.receivedAt),
          `+${m.userPhone}`,
          m.profileName,
          `+${m.businessPhone}`,
          m.type,
          messageSummary(m.type, m.payload),
        ]),
      )
      .join('');
    if (!page.hasMore) return;
  }
}

export function registerMessagesCsv(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/messages.csv', async (request, reply) => {
    const session = sessionOf(request);
    const { search, filters, errors } = readSearch(request.query);
    const [field, problem] = Object.entries(errors)[0] ?? [];
    if (field && problem) throw new GatewayError('invalid_request', `\`${field}\`: ${problem}`, { field });
    const rows = (search.tab === 'out' ? sentCsv : receivedCsv)(deps, session.accountId, filters);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header(
      'content-disposition',
      `attachment; filename="messages-${search.tab === 'out' ? 'sent' : 'received'}.csv"`,
    );
    return reply.send(Readable.from(rows));
  });
}
