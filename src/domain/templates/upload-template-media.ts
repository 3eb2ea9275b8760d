/**
 * Storing an uploaded header file (operation 16) as it arrives: its kind is recognised from its first
 * bytes, then the bytes go straight to disk with the kind's size limit and the account's storage quota
 * enforced while writing (the store's `writeMedia`). No upload is ever held in memory whole, and a refused one
 * leaves no file behind.
 *
 * The quota counts the header files an account keeps (MEDIA_QUOTA_BYTES_PER_ACCOUNT). Media users send
 * to the account is not counted: refusing to keep it would lose what the account received, and anyone
 * with a phone could fill an account's quota and so block its uploads.
 */

import { drain, peekHead } from '../../lib/stream-head.ts';
import { GatewayError } from '../errors.ts';
import type { TemplateMedia, TemplatesStore } from '../ports/templates.ts';
import { TEMPLATE_MEDIA_HEAD_BYTES, templateMediaKind, templateMediaTooLarge } from './template-media.ts';

export interface TemplateMediaDeps {
  templates: TemplatesStore;
  /** Bytes of header files one account may keep. */
  mediaQuotaBytes: number;
}

const MB = 1024 * 1024;

function overQuota(quotaBytes: number, usedBytes: number): GatewayError {
  const size = (bytes: number) => `${Math.floor((bytes / MB) * 10) / 10} MB (${bytes} bytes)`;
  return new GatewayError(
    'payload_too_large',
    `\`file\` does not fit in the account's media storage quota of ${size(quotaBytes)}; ${size(usedBytes)} are in use`,
    { field: 'file' },
  );
}

/** Refuses at once, before a byte of the file is read, when the account's quota is already full. */
export async function ensureTemplateMediaRoom(deps: TemplateMediaDeps, accountId: string): Promise<void> {
  const used = await deps.templates.mediaBytesOfAccount(accountId);
  if (used >= deps.mediaQuotaBytes) throw overQuota(deps.mediaQuotaBytes, used);
}

export async function storeTemplateMedia(
  deps: TemplateMediaDeps,
  accountId: string,
  source: AsyncIterable<Uint8Array>,
): Promise<TemplateMedia> {
  const { head, whole } = await peekHead(source, TEMPLATE_MEDIA_HEAD_BYTES);
  let kind: ReturnType<typeof templateMediaKind>;
  try {
    kind = templateMediaKind(head);
  } catch (error) {
    await drain(whole);
    throw error;
  }
  const used = await deps.templates.mediaBytesOfAccount(accountId);
  const room = Math.max(0, deps.mediaQuotaBytes - used);
  const written = await deps.templates.writeMedia(
    accountId,
    whole,
    Math.min(kind.maxBytes, room),
    kind.mimeType,
  );
  if (!written.ok) {
    throw written.size > kind.maxBytes ? templateMediaTooLarge(kind) : overQuota(deps.mediaQuotaBytes, used);
  }
  const row = written.media;
  // Uploads running side by side each measured their room before the others were recorded: counted
  // again with this one in, the account must still fit, or this upload gives its place back.
  const usedNow = await deps.templates.mediaBytesOfAccount(accountId);
  if (usedNow > deps.mediaQuotaBytes) {
    await deps.templates.removeMedia(accountId, row.handle);
    throw overQuota(deps.mediaQuotaBytes, usedNow - row.size);
  }
  return row;
}
