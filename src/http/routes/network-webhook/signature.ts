/** `X-Hub-Signature-256` over the raw body, compared in constant time so it leaks nothing by timing. */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signatureMatches(appSecret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
