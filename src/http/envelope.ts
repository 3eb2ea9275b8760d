/**
 * The wire shapes of the API document, in one place (docs/contract.md §2).
 * `timestamp` is UTC ISO 8601 with milliseconds and no zone suffix: `2026-11-22T11:20:33.123`.
 */
export function wireTimestamp(at: number = Date.now()): string {
  return new Date(at).toISOString().slice(0, -1);
}

export interface Envelope<T> {
  timestamp: string | null;
  data: T | null;
  status: 'success' | 'error';
  message: string;
  errors: null;
}

export function success<T>(data: T, message = ''): Envelope<T> {
  return { timestamp: wireTimestamp(), data, status: 'success', message, errors: null };
}

export function failure(message: string): Envelope<never> {
  return { timestamp: wireTimestamp(), data: null, status: 'error', message, errors: null };
}

/** The documented 401 body: yes, `status` is `success` there (docs/contract.md §2). */
export function invalidCredentials(): Envelope<never> {
  return {
    timestamp: wireTimestamp(),
    data: null,
    status: 'success',
    message: 'Invalid credentials',
    errors: null,
  };
}

/** The documented 400 of send operations, plus a `message` that names the field and the rule. */
export function malformedSend(path: string, message: string) {
  return { timestamp: wireTimestamp(), status: 400, error: 'Bad Request', path, message };
}
