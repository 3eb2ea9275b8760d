/**
 * `GET /media/:id?expires=&signature=`: media users sent, served from the gateway's own storage. The
 * signed, expiring link is the credential (docs/contract.md §6), so the route needs no API key; anything but a
 * valid link is a 404, which tells a prober nothing about which ids exist. Every answer, a 404 or a 400
 * included, carries the headers that keep a file from running on this origin (src/lib/media-serving.ts).
 */
import { type FileHandle, open } from 'node:fs/promises';
import { Type } from 'typebox';
import { GatewayError } from '../../../domain/errors.ts';
import type { MediaLibrary } from '../../../domain/inbound-media.ts';
import { mediaLinkValid } from '../../../lib/media-links.ts';
import { MEDIA_SECURITY_HEADERS, mediaServing } from '../../../lib/media-serving.ts';
import type { TypedApp } from '../../typed-app.ts';

export function registerServeMedia(app: TypedApp, media: MediaLibrary, secretKey: Buffer): void {
  app.get(
    '/media/:id',
    {
      schema: {
        hide: true,
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({
          expires: Type.String({ maxLength: 20 }),
          signature: Type.String({ maxLength: 100 }),
        }),
      },
      // Before validation, so the answers to malformed links carry them too.
      onRequest: async (_request, reply) => {
        reply.headers(MEDIA_SECURITY_HEADERS);
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { expires, signature } = request.query;
      const file = mediaLinkValid(secretKey, id, expires, signature) ? await media.find(id) : undefined;
      const gone = () => new GatewayError('not_found', 'this media link is invalid or has expired');
      if (!file) throw gone();
      // Opened before any header is set: a file missing from disk (a database restored without its media
      // folder) is the same 404, not an error half-way through an answer.
      let handle: FileHandle;
      try {
        handle = await open(media.absolutePath(file), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw gone();
        throw error;
      }
      const serving = mediaServing(file.mimeType);
      reply.header('content-type', serving.contentType);
      reply.header('content-disposition', serving.disposition);
      reply.header('content-length', String(file.size));
      reply.header('cache-control', 'private, max-age=3600');
      return reply.send(handle.createReadStream());
    },
  );
}
