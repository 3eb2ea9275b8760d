/**
 * What the dashboard reads (src/domain/dashboard.ts; src/store/dashboard-repo.ts): an account's messages,
 * received messages and webhook deliveries counted per UTC day within a range, optionally for one of its
 * numbers. Scoped by account.
 */

export interface DashboardRange {
  /** Epoch ms, included. */
  from: number;
  /** Epoch ms, excluded. */
  until: number;
  /** One business number (E.164 digits), or every number of the account. */
  number?: string | undefined;
}

/** Sent messages of one day (days since the epoch, UTC) in one status. */
export interface SentCount {
  day: number;
  status: string;
  count: number;
}

export interface DayCount {
  day: number;
  count: number;
}

/** Failed messages with one stored error, however many. */
export interface FailureCount {
  error: string | null;
  count: number;
}

/** Template messages of one template (its name on the network and language) in one status. */
export interface TemplateCount {
  name: string;
  language: string;
  status: string;
  count: number;
}

export interface DashboardStore {
  sentByDay(accountId: string, range: DashboardRange): Promise<SentCount[]>;
  receivedByDay(accountId: string, range: DashboardRange): Promise<DayCount[]>;
  /** The most frequent stored errors of failed messages, most first, at most `limit`. */
  failures(accountId: string, range: DashboardRange, limit: number): Promise<FailureCount[]>;
  /** Webhook deliveries made in the range, by their status now (pending, succeeded, failed). */
  deliveriesByStatus(accountId: string, range: DashboardRange): Promise<Record<string, number>>;
  /** Template sends in the range by template and status. */
  templatesByStatus(accountId: string, range: DashboardRange): Promise<TemplateCount[]>;
}
