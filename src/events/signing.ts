/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): every delivery carries `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature`: space-separated `v1,<base64 HMAC-SHA256>`
 * of `<id>.<timestamp>.<body>`, one per active secret, so receivers can rotate secrets without a gap.
 * Secrets are `whsec_` + base64 of 24 random bytes; the HMAC key is the decoded bytes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'whsec_';

export { generateWebhookSecret } from '../domain/secrets.ts';

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets.map((s) => signature(s, id, timestampSeconds, body)).join(' ');
}

/** The receiver's side, as documented in docs/webhooks.md; used by the tests to verify real deliveries. */
export function verifySignature(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  toleranceSeconds = 300,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(signature(secret, headers.id, ts, body));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
