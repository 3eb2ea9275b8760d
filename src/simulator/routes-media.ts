/**
 * Media a virtual user sent, as the business downloads it (docs/cloud-api.md §5.2): `GET /{v}/{media-id}` answers
 * the media object with a short-lived `url`; `GET <url>` with the same Bearer token answers the bytes;
 * `DELETE /{v}/{media-id}` forgets the file. The Graph id routes are shared (graph-objects.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sameSecret } from '../lib/same-secret.ts';
import { graphError, invalidTokenError } from './graph-errors.ts';
import type { GraphObjects } from './graph-objects.ts';
import type { MediaVault } from './media-vault.ts';
import { fieldOf, pathParam } from './request-fields.ts';

/** The network's download links are short-lived (docs/cloud-api.md §5.2: about five minutes). */
export const DOWNLOAD_LINK_TTL_MS = 5 * 60_000;

export interface MediaRouteDeps {
  accessToken: string;
  vault: MediaVault;
  objects: GraphObjects;
  now: () => number;
}

/** A download link is valid until its time, signed for its media id (compared in constant time). */
function linkIsValid(
  request: FastifyRequest,
  id: string,
  sign: (id: string, expires: number) => string,
  now: number,
): boolean {
  const expires = Number(fieldOf(request.query, 'expires'));
  const given = Buffer.from(String(fieldOf(request.query, 'signature') ?? ''));
  const expected = Buffer.from(sign(id, expires));
  return (
    Number.isSafeInteger(expires) &&
    expires >= now &&
    given.length === expected.length &&
    timingSafeEqual(given, expected)
  );
}

/** A media file as a Graph object: its metadata with a fresh download link, or deleted. */
function registerMediaObject(
  deps: MediaRouteDeps,
  downloadUrl: (request: FastifyRequest, id: string) => string,
): void {
  deps.objects.register({
    name: 'media',
    owns: (id) => deps.vault.get(id) !== undefined,
    handlers: {
      get(id, request) {
        const media = deps.vault.get(id);
        if (!media) return undefined;
        return {
          messaging_product: 'whatsapp',
          url: downloadUrl(request, id),
          mime_type: media.mimeType,
          sha256: media.sha256,
          file_size: media.bytes.length,
          id,
        };
      },
      delete(id) {
        deps.vault.delete(id);
        return { success: true };
      },
    },
  });
}

export function registerMediaRoutes(app: FastifyInstance, deps: MediaRouteDeps): void {
  // Signs download links so a guessed or expired link is refused like Meta's lookaside links are.
  const linkKey = randomBytes(32);
  const sign = (id: string, expires: number) =>
    createHmac('sha256', linkKey).update(`${id}.${expires}`).digest('base64url');
  // The prefix the simulator is mounted under (`/simulator`), known once the plugin is registered.
  const prefix = app.prefix;

  function downloadUrl(request: FastifyRequest, id: string): string {
    const expires = deps.now() + DOWNLOAD_LINK_TTL_MS;
    return `${request.protocol}://${request.host}${prefix}/media-download/${id}?expires=${expires}&signature=${sign(id, expires)}`;
  }

  registerMediaObject(deps, downloadUrl);

  app.get('/media-download/:id', async (request, reply) => {
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
    if (!sameSecret(token, deps.accessToken)) {
      const error = invalidTokenError();
      return reply.code(error.httpStatus).send(error.body);
    }
    const id = pathParam(request.params, 'id');
    const media = deps.vault.get(id);
    const valid = linkIsValid(request, id, sign, deps.now());
    if (!valid || !media) {
      const error = graphError(
        100,
        'The media link is invalid or has expired; request the media object again.',
        404,
      );
      return reply.code(error.httpStatus).send(error.body);
    }
    // Served on the gateway's own origin: whatever the file is, it must not run there.
    return reply
      .header('content-type', media.mimeType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('content-disposition', 'attachment')
      .send(media.bytes);
  });
}
