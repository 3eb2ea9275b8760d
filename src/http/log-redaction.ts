/**
 * Keeps credentials out of the log at every level (docs/operations.md, Logs), in two layers:
 * - pino's redaction of known paths: the headers that carry credentials on the request and in a logged
 *   `headers` object, and the `apiKey` and `accessToken` fields of a line;
 * - every finished line, whatever logged it (Fastify, a plugin, this code), is scrubbed before it is
 *   written: the value of any JSON field named like a credential, the credential parameters of any URL
 *   (signed media links, `hub.verify_token`, `access_token`) and the token of a flow preview link or of a
 *   one-time portal link. Lines are JSON, so a field value is one JSON string or an array of them.
 */

export const REDACTED = '[Redacted]';

/** Request and response headers that carry a credential. */
const SECRET_HEADERS = [
  'apikey',
  'x-api-key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-hub-signature-256',
  'x-hub-signature',
  'webhook-signature',
];

/** Field names whose value is a credential wherever they appear in a line (compared without case). */
const SECRET_FIELDS = [
  ...SECRET_HEADERS,
  'accesstoken',
  'access_token',
  'appsecret',
  'app_secret',
  'verifytoken',
  'verify_token',
  'secret',
  'secrets',
  'password',
  'token',
  'signature',
  'csrf_token',
  '_csrf',
];

/** URL query parameters that are credentials (a signed link is its own credential). */
const SECRET_PARAMS = [
  'signature',
  'token',
  'access_token',
  'hub(?:\\.|%2e)verify_token',
  'apikey',
  'api_key',
];

const asPattern = (name: string) => name.replace(/[-.]/g, '\\$&');
const JSON_STRING = '"(?:[^"\\\\]|\\\\.)*"';
const FIELD = new RegExp(
  `"(${SECRET_FIELDS.map(asPattern).join('|')})"\\s*:\\s*(?:${JSON_STRING}|\\[(?:${JSON_STRING},?)*\\])`,
  'gi',
);
const PARAM = new RegExp(`([?&](?:${SECRET_PARAMS.join('|')})=)[^&#"\\s\\\\]*`, 'gi');
/** `/flows/preview/<token>` and `/app/invite/<token>`: the token in the path is the page's only credential. */
const PATH_TOKEN = /(\/flows\/preview\/|\/app\/invite\/)[^/?#"\s\\]+/g;

/** One log line with every credential it holds replaced by [Redacted]. */
export function scrubLogLine(line: string): string {
  return line
    .replace(FIELD, `"$1":"${REDACTED}"`)
    .replace(PARAM, `$1${REDACTED}`)
    .replace(PATH_TOKEN, `$1${REDACTED}`);
}

/**
 * pino redaction paths: credential headers where Fastify puts them, and credential fields of a line.
 *
 * No path starts with a wildcard (`*.headers…`): pino then passes every value of every line, and the
 * request id bound to every request's logger, through its redactor, which parses each path again on every
 * call: 6 µs a request at `warn`, 37 µs at `info`, measured for
 * docs/adr/0017-attempts-counted-first-logs-scrubbed-requests-bounded.md. Deeper positions, such as the
 * request headers @fastify/multipart logs at `trace`, are left to the scrub of the finished line, which
 * replaces these fields at any depth.
 */
export function redactPaths(): string[] {
  const headerPaths = SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`]);
  return [...headerPaths, 'apiKey', 'accessToken'];
}

/** The logger options that apply both layers; `stream` replaces standard output (tests read it). */
export function redactingLoggerOptions(level: string, stream?: { write(line: string): void }) {
  return {
    level,
    redact: { paths: redactPaths(), censor: REDACTED },
    hooks: { streamWrite: scrubLogLine },
    ...(stream ? { stream } : {}),
  };
}
