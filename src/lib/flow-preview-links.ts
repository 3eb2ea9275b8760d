/**
 * Flow preview links (docs/contract.md §4): `<PUBLIC_URL>/flows/preview/<flow id>.<expires>.<signature>`, valid
 * 30 days like Meta's preview links (docs/cloud-api.md §6.1). The token is the page's only credential.
 */
import { linkSignature, linkSignatureValid } from './signed-links.ts';

export const FLOW_PREVIEW_TTL_MS = 30 * 24 * 3_600_000;
const PURPOSE = 'switchboard flow previews v1';

export interface FlowPreviewLink {
  preview_url: string;
  /** Numeric offset, no fraction, as Meta writes it: `2026-12-22T11:20:33+0000` (docs/contract.md §2). */
  expires_at: string;
}

export function flowPreviewLink(
  publicUrl: string,
  secretKey: Buffer,
  flowId: number,
  now = Date.now(),
): FlowPreviewLink {
  const expiresAt = now + FLOW_PREVIEW_TTL_MS;
  const token = `${flowId}.${expiresAt}.${linkSignature(secretKey, PURPOSE, String(flowId), expiresAt)}`;
  return {
    preview_url: `${publicUrl}/flows/preview/${token}`,
    expires_at: `${new Date(expiresAt).toISOString().slice(0, 19)}+0000`,
  };
}

/** The flow id a token grants, or undefined for a malformed, tampered or expired token. */
export function flowIdOfPreviewToken(secretKey: Buffer, token: string, now = Date.now()): number | undefined {
  const match = /^([1-9]\d{0,14})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const [, id, expires, signature] = match as unknown as [string, string, string, string];
  return linkSignatureValid(secretKey, PURPOSE, id, expires, signature, now) ? Number(id) : undefined;
}
