/**
 * Media the business uploads to send by id (docs/sending.md#upload-media-to-send-by-id): recognised by its
 * content (outbound-media-kinds.ts), spooled to local storage as it arrives (never whole in memory), then
 * uploaded to the network for the number it is sent from, which answers its media id. The gateway keeps
 * that id under its own (`upl_…`), scoped by account: another account's upload is not found, and the
 * network's id is never what a client has to hold.
 */
import { newId } from '../lib/ids.ts';
import { normalizePhone } from '../lib/phone.ts';
import { drain, peekHead } from '../lib/stream-head.ts';
import { GatewayError } from './errors.ts';
import { managementNetworkError } from './management-network-error.ts';
import {
  OUTBOUND_HEAD_BYTES,
  OUTBOUND_MEDIA_MAX_BYTES,
  outboundKind,
  outboundTooLarge,
} from './outbound-media-kinds.ts';
import type { NetworkConnector } from './ports/network.ts';
import type { OutboundMedia, OutboundMediaStore } from './ports/outbound-media.ts';
import { numberCredentials, type SenderDeps } from './senders.ts';

export interface OutboundMediaDeps extends Pick<SenderDeps, 'numbers' | 'sandbox' | 'secretKey'> {
  media: OutboundMediaStore;
  connector: Pick<NetworkConnector, 'uploadMedia' | 'deleteMedia'>;
}

const MEDIA = { noun: 'media', checkFirst: 'upload it again if in doubt' };

export interface UploadInput {
  phone: string;
  declaredType: string;
  filename: string;
  source: AsyncIterable<Uint8Array>;
}

export async function uploadOutboundMedia(
  deps: OutboundMediaDeps,
  accountId: string,
  input: UploadInput,
): Promise<OutboundMedia> {
  const phone = normalizePhone(input.phone);
  if (!phone)
    throw new GatewayError('invalid_request', '`phone` must be a phone number with country code', {
      field: 'phone',
    });
  const credentials = await numberCredentials(deps, accountId, phone, 'phone');
  const { head, whole } = await peekHead(input.source, OUTBOUND_HEAD_BYTES);
  let found: ReturnType<typeof outboundKind>;
  try {
    found = outboundKind(head, input.declaredType);
  } catch (error) {
    await drain(whole);
    throw error;
  }
  const spooled = await deps.media.spool(whole, Math.min(found.maxBytes, OUTBOUND_MEDIA_MAX_BYTES));
  if (!spooled.ok) throw outboundTooLarge(found);
  try {
    const uploaded = await deps.connector.uploadMedia(credentials, {
      path: spooled.path,
      mimeType: found.mimeType,
      filename: input.filename,
    });
    if (!uploaded.ok) throw managementNetworkError(MEDIA, 'upload', uploaded.failure);
    const media: OutboundMedia = {
      id: newId('upl'),
      accountId,
      phone,
      networkMediaId: uploaded.value.mediaId,
      mediaType: found.mediaType,
      mimeType: found.mimeType,
      size: spooled.size,
      createdAt: Date.now(),
    };
    await deps.media.insertOutboundMedia(media);
    return media;
  } finally {
    await deps.media.discard(spooled.path);
  }
}

const notFound = (id: string) =>
  new GatewayError('not_found', `no uploaded media with mediaId "${id}" in this account`, {
    field: 'mediaId',
  });

/**
 * Forgets an upload of `phone` (the number it was uploaded for, as the path names it): on the network
 * first (whose answer decides), then here.
 */
export async function deleteOutboundMedia(
  deps: OutboundMediaDeps,
  accountId: string,
  phone: string,
  id: string,
): Promise<void> {
  const number = normalizePhone(phone);
  if (!number) {
    throw new GatewayError(
      'invalid_request',
      `\`phone\` in the path must be a phone number with country code, e.g. +14155550100`,
      { field: 'phone' },
    );
  }
  const media = await deps.media.findOutboundMedia(accountId, id);
  if (!media) throw notFound(id);
  // Another number's upload is not found under this one (the path names the number it was uploaded for).
  if (media.phone !== number)
    throw new GatewayError('not_found', `no uploaded media with mediaId "${id}" for +${number}`, {
      field: 'mediaId',
    });
  const credentials = await numberCredentials(deps, accountId, media.phone, 'mediaId');
  const deleted = await deps.connector.deleteMedia(credentials, media.networkMediaId);
  // Gone on the network already (expired after 30 days, or deleted there): forgetting it here is right.
  if (!deleted.ok && deleted.failure.code !== 100)
    throw managementNetworkError(MEDIA, 'delete', deleted.failure);
  await deps.media.deleteOutboundMedia(accountId, id);
}

/**
 * The network's id of an upload a send names: the account's, uploaded for the number it is sent from, and
 * of the kind the send says; a 404 or 400 naming `field` (the send's `mediaId`, or a template header's)
 * otherwise.
 */
export async function mediaToSend(
  media: Pick<OutboundMediaStore, 'findOutboundMedia'>,
  accountId: string,
  sender: string,
  content: { mediaId: string; mediaType: string },
  field = 'mediaId',
): Promise<string> {
  const found = await media.findOutboundMedia(accountId, content.mediaId);
  if (!found) {
    throw new GatewayError(
      'not_found',
      `no uploaded media with mediaId "${content.mediaId}" in this account`,
      {
        field,
      },
    );
  }
  if (found.phone !== sender) {
    throw new GatewayError(
      'invalid_request',
      `\`${field}\` was uploaded for +${found.phone}; send it from that number, or upload it again for +${sender}`,
      { field },
    );
  }
  if (found.mediaType !== content.mediaType) {
    throw new GatewayError(
      'invalid_request',
      `\`${field}\` is ${found.mimeType}: send it with mediaType ${found.mediaType}`,
      { field },
    );
  }
  return found.networkMediaId;
}
