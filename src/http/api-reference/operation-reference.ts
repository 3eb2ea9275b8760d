/**
 * What the API reference says about one operation beyond what its route's schemas say (the request and
 * success shapes stay in the route): its operationId, a description, the answers it can give, and
 * examples. Kept per resource beside this file, keyed by `METHOD /path` as the OpenAPI document writes it.
 */

export interface OperationReference {
  /** Stable and unique: generated clients name their functions after it. */
  operationId: string;
  description: string;
  success: {
    status: 200 | 201 | 202;
    description: string;
    example: unknown;
  };
  /** Another success an operation may give, in the same envelope (a contact changed rather than made). */
  alsoSuccess?: { status: 200 | 201; description: string; example: unknown };
  /**
   * The error answers the operation can give, each with a sentence it really gives. For /api/v1
   * operations the 401 (missing or unknown key) and the 429 (rate limit) are added to every one.
   */
  errors: Partial<Record<400 | 403 | 404 | 409 | 413 | 414 | 415 | 422 | 429 | 502 | 503 | 504, string>>;
  /** A JSON request body that works on a gateway set up as the documentation's examples are. */
  requestExample?: unknown;
  /**
   * The query parameters of a route that declares none in its schema (the simulator's): documented here,
   * so that a client generated from the document can send them.
   */
  query?: { name: string; required: boolean; description: string }[];
  /** The parts of a multipart/form-data body, for the operations that read one. */
  multipart?: { required: string[]; parts: Record<string, { description: string; file?: true }> };
  /**
   * The shape of its refusals when not the envelope: `send` for the send operations' malformed-send 400,
   * `simulator` for the virtual phone's `{"error": {"message"}}`.
   */
  refusals?: 'send' | 'simulator';
}

export type ReferenceTable = Record<string, OperationReference>;

/** The sentences the network-bound errors give, shared by the operations that reach the network. */
export const NETWORK_ERRORS = {
  502: 'The network refused the credentials of this business number (#190) Invalid OAuth access token.',
  503: 'The network is unavailable (#131016) Service unavailable; nothing was sent; retry with the same messageId after 5 s',
  504: "The network did not confirm the message (Timeout: no answer within 10 s), so its outcome is not yet known: the network's status reports will settle it, or it is marked FAILED if none arrives within 15 minutes; check its status instead of sending it again under another messageId",
} as const;

export const NOT_JOINED =
  '+254712345678 has not joined your sandbox: they must first send "join maple-tiger-river-104233" to +14155550100';

export const FOREIGN_NUMBER =
  '`from` +14155550199 is neither the sandbox number (+14155550100) nor a number registered to your account';
