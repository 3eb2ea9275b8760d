/**
 * The closed catalogue of domain errors. Domain code throws `GatewayError` with a code from here; the HTTP
 * layer maps it to the wire shape in exactly one place (src/http/error-handler.ts). Anything else that is
 * thrown is a bug: a 500, logged in full, never shown to the client.
 */
export const errorCatalogue = {
  invalid_request: { status: 400 },
  unauthenticated: { status: 401 },
  forbidden_number: { status: 403 },
  not_found: { status: 404 },
  conflict: { status: 409 },
  payload_too_large: { status: 413 },
  session_closed: { status: 422 },
  network_rejected: { status: 422 },
  opted_out: { status: 422 },
  rate_limited: { status: 429 },
  network_error: { status: 502 },
  network_unavailable: { status: 503 },
  network_timeout: { status: 504 },
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

export class GatewayError extends Error {
  override name = 'GatewayError';
  readonly code: ErrorCode;
  readonly status: number;
  /** The field a 400 is about, when there is one. */
  readonly field: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  /**
   * The network's error code when the network refused (131048, 131064, ...): for the gateway's own
   * decisions (a campaign pausing for its number), never shown apart from the message.
   */
  readonly networkCode: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    extra: { field?: string; retryAfterSeconds?: number; networkCode?: number } = {},
  ) {
    super(message);
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.field = extra.field;
    this.retryAfterSeconds = extra.retryAfterSeconds;
    this.networkCode = extra.networkCode;
  }
}
