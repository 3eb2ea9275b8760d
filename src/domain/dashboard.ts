/**
 * The dashboard (docs/portal.md, "Dashboard"): what an account's messaging did over the last days, for all
 * its numbers or one. Counted the way message statuses are counted everywhere (docs/contract.md): a read
 * message was also delivered and sent, so sent ⊇ delivered ⊇ read. Days are UTC days, the last one today.
 */
import type { DashboardStore, SentCount, TemplateCount } from './ports/dashboard.ts';

/** The ranges the dashboard offers, in days. */
export const DASHBOARD_DAYS = [7, 30, 90] as const;
export type DashboardDays = (typeof DASHBOARD_DAYS)[number];

/** Failure groups read, at most: the most frequent stored errors. */
const FAILURE_GROUPS = 200;
const DAY_MS = 86_400_000;

export interface DayFigures {
  /** `2026-11-26` */
  day: string;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  received: number;
}

export interface Dashboard {
  days: DayFigures[];
  totals: Omit<DayFigures, 'day'> & { pending: number };
  /** delivered ÷ sent and read ÷ delivered, as whole percents; null with nothing to divide by. */
  rates: { delivered: number | null; read: number | null };
  /** Stored errors of failed messages with how many failed so, most first (the portal words them). */
  failures: { error: string | null; count: number }[];
  /** The account's webhook deliveries made in the range, by status now (every endpoint, every number). */
  webhooks: { succeeded: number; failed: number; pending: number };
  /** Each template sent in the range, most sent first, with its counts and rates. */
  templates: TemplateFigures[];
}

export interface TemplateFigures {
  /** The name the network knows it under (a sandbox template's carries the account's tag). */
  name: string;
  language: string;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  rates: { delivered: number | null; read: number | null };
}

/** The template rows grouped by template, counted as the totals are. */
function templateFigures(rows: readonly TemplateCount[]): TemplateFigures[] {
  const byTemplate = new Map<string, TemplateFigures>();
  for (const row of rows) {
    const key = `${row.name}\u0000${row.language}`;
    let figures = byTemplate.get(key);
    if (!figures) {
      figures = {
        name: row.name,
        language: row.language,
        sent: 0,
        delivered: 0,
        read: 0,
        failed: 0,
        rates: NO_RATES,
      };
      byTemplate.set(key, figures);
    }
    add(figures, row);
  }
  return [...byTemplate.values()]
    .map((f) => ({
      ...f,
      rates: { delivered: percent(f.delivered, f.sent), read: percent(f.read, f.delivered) },
    }))
    .sort((a, b) => b.sent + b.failed - (a.sent + a.failed) || a.name.localeCompare(b.name));
}

const NO_RATES = { delivered: null, read: null };
const percent = (part: number, whole: number) => (whole === 0 ? null : Math.round((100 * part) / whole));

/** How a message in `status` counts: each status counts toward itself and every one before it. */
function add(
  figures: Pick<DayFigures, 'sent' | 'delivered' | 'read' | 'failed'>,
  { status, count }: Pick<SentCount, 'status' | 'count'>,
): void {
  if (status === 'FAILED') figures.failed += count;
  if (['SENT', 'DELIVERED', 'READ'].includes(status)) figures.sent += count;
  if (['DELIVERED', 'READ'].includes(status)) figures.delivered += count;
  if (status === 'READ') figures.read += count;
}

export async function dashboardOf(
  store: DashboardStore,
  accountId: string,
  options: { days: DashboardDays; number?: string | undefined; now: number },
): Promise<Dashboard> {
  const today = Math.floor(options.now / DAY_MS);
  const first = today - options.days + 1;
  const range = { from: first * DAY_MS, until: (today + 1) * DAY_MS, number: options.number };
  const [sent, received, failures, deliveries, templates] = await Promise.all([
    store.sentByDay(accountId, range),
    store.receivedByDay(accountId, range),
    store.failures(accountId, range, FAILURE_GROUPS),
    store.deliveriesByStatus(accountId, range),
    store.templatesByStatus(accountId, range),
  ]);
  const days: DayFigures[] = Array.from({ length: options.days }, (_, i) => ({
    day: new Date((first + i) * DAY_MS).toISOString().slice(0, 10),
    sent: 0,
    delivered: 0,
    read: 0,
    failed: 0,
    received: 0,
  }));
  let pending = 0;
  for (const row of sent) {
    const figures = days[row.day - first];
    if (figures) add(figures, row);
    if (row.status === 'PENDING') pending += row.count;
  }
  for (const row of received) {
    const figures = days[row.day - first];
    if (figures) figures.received += row.count;
  }
  const sum = (key: keyof Omit<DayFigures, 'day'>) => days.reduce((n, d) => n + d[key], 0);
  const totals = {
    sent: sum('sent'),
    delivered: sum('delivered'),
    read: sum('read'),
    failed: sum('failed'),
    received: sum('received'),
    pending,
  };
  return {
    days,
    totals,
    rates: {
      delivered: percent(totals.delivered, totals.sent),
      read: percent(totals.read, totals.delivered),
    },
    failures,
    webhooks: {
      succeeded: deliveries.succeeded ?? 0,
      failed: deliveries.failed ?? 0,
      pending: deliveries.pending ?? 0,
    },
    templates: templateFigures(templates),
  };
}
