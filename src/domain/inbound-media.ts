/**
 * Copies the file of a user's media message from the network into the gateway's storage: the network's
 * download links expire within minutes, the gateway's signed link lasts (src/lib/media-links.ts). A
 * failed copy never loses the message: it is still stored and published, with the reason its file is
 * missing (src/domain/inbound.ts).
 */
import { decryptSecret } from '../lib/sealed-secrets.ts';
import type { MediaCopy } from './inbound.ts';
import type { MediaDownload, NetworkConnector } from './ports/network.ts';
import type { InboundMessageEvent } from './ports/network-events.ts';
import type { NumbersStore } from './ports/numbers.ts';
import type { SandboxSettings } from './senders.ts';

/** The network's largest media (documents, docs/cloud-api.md §1.6); bigger files are not copied. */
export const MEDIA_MAX_BYTES = 100 * 1024 * 1024;

/** A new file's place in storage, before anything is written there or recorded. */
export interface MediaPlace {
  id: string;
  relative: string;
  absolute: string;
}

/** A copied file as recorded: whose it is, which network media it copies, what it holds. */
export interface StoredMediaFile {
  id: string;
  accountId: string;
  networkMediaId: string;
  mimeType: string;
  size: number;
  sha256: string;
  createdAt: number;
  /** Where the bytes are, relative to the data directory. */
  location: string;
}

/** Where copied files are kept: a place is chosen first, the file recorded once its bytes are written. */
export interface MediaFiles {
  newPlace(): MediaPlace;
  /** Records a file already written at `place` (removing it if the record cannot be written). */
  record(
    accountId: string,
    networkMediaId: string,
    place: MediaPlace,
    written: MediaDownload,
  ): Promise<{ id: string }>;
}

/** Reading copied files back: by id (the signed link), or the account's copies of network media ids. */
export interface MediaLibrary extends MediaFiles {
  find(id: string): Promise<StoredMediaFile | undefined>;
  findOfAccountByNetworkIds(
    accountId: string,
    networkMediaIds: readonly string[],
  ): Promise<StoredMediaFile[]>;
  /** Where the bytes of `file` are on this node's disk. */
  absolutePath(file: StoredMediaFile): string;
}

export interface InboundMediaDeps {
  sandbox: SandboxSettings;
  numbers: NumbersStore;
  connector: NetworkConnector;
  files: MediaFiles;
  secretKey: Buffer;
  /** The gateway's own link to a stored file (built by the HTTP layer, which owns the URL). */
  mediaUrl(fileId: string): string;
  logger: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** The access token of the business number that received the event (the sandbox's own, or a connected one's). */
async function accessTokenOf(deps: InboundMediaDeps, phoneNumberId: string): Promise<string> {
  const number =
    phoneNumberId === deps.sandbox.phoneNumberId
      ? undefined
      : await deps.numbers.findNumberByPhoneNumberId(phoneNumberId);
  return number ? decryptSecret(number.sealedAccessToken, deps.secretKey) : deps.sandbox.accessToken;
}

export async function copyInboundMedia(
  deps: InboundMediaDeps,
  accountId: string,
  event: InboundMessageEvent,
  mediaId: string,
): Promise<MediaCopy> {
  const accessToken = await accessTokenOf(deps, event.phoneNumberId);
  const place = deps.files.newPlace();
  const result = await deps.connector.fetchMedia(
    { phoneNumberId: event.phoneNumberId, accessToken },
    mediaId,
    MEDIA_MAX_BYTES,
    place.absolute,
  );
  if (!result.ok) {
    deps.logger.warn({ mediaId, failure: result.failure }, 'inbound media could not be copied');
    return { error: `${result.failure.title}: ${result.failure.details}` };
  }
  try {
    const file = await deps.files.record(accountId, mediaId, place, result.media);
    return { url: deps.mediaUrl(file.id) };
  } catch (error) {
    // The message itself must still be stored and published: only its file is missing.
    deps.logger.error({ mediaId, err: error }, 'inbound media could not be recorded');
    return { error: 'media not stored: the gateway could not record the file' };
  }
}
