/**
 * Links from the message log to the gateway's copies of the files users sent: fresh signed links
 * (src/lib/media-links.ts), relative to the portal's own origin. The copies are found by the network's
 * media id in the message, among the signed-in account's files only.
 */

import type { MediaLibrary } from '../domain/inbound-media.ts';
import type { InboundMessage } from '../domain/ports/inbound.ts';
import { mediaLink } from '../lib/media-links.ts';

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);

function networkMediaId(row: InboundMessage): string | undefined {
  if (!MEDIA_TYPES.has(row.type)) return undefined;
  try {
    const id = (JSON.parse(row.payload) as Record<string, { id?: unknown } | undefined>)[row.type]?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** For each received row whose file the gateway copied: the link to open it, by row id. */
export async function receivedMediaLinks(
  media: { repo: MediaLibrary; secretKey: Buffer },
  accountId: string,
  rows: readonly InboundMessage[],
): Promise<Map<string, string>> {
  const wanted = new Map<string, string>();
  for (const row of rows) {
    const id = networkMediaId(row);
    if (id) wanted.set(row.id, id);
  }
  const files = await media.repo.findOfAccountByNetworkIds(accountId, [...new Set(wanted.values())]);
  const fileOf = new Map(files.map((file) => [file.networkMediaId, file.id]));
  const links = new Map<string, string>();
  for (const [rowId, networkId] of wanted) {
    const fileId = fileOf.get(networkId);
    if (fileId) links.set(rowId, mediaLink('', media.secretKey, fileId));
  }
  return links;
}
