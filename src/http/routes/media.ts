/**
 * `GET /media/:id?expires=&signature=`: media users sent, served from the gateway's own storage. The
 * signed, expiring link is the credential (decisions §6), so the route needs no API key; anything but a
 * valid link is a 404, which tells a prober nothing about which ids exist.
 */
import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { GatewayError } from '../../domain/errors.ts';
import { mediaLinkValid } from '../../domain/media-links.ts';
import type { MediaRepo } from '../../store/media-repo.ts';

export function registerMediaRoute(app: FastifyInstance, media: MediaRepo, secretKey: Buffer): void {
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
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const { expires, signature } = request.query as { expires: string; signature: string };
      const file = mediaLinkValid(secretKey, id, expires, signature) ? await media.find(id) : undefined;
      if (!file) throw new GatewayError('not_found', 'this media link is invalid or has expired');
      reply.header('content-type', file.mime_type);
      reply.header('content-length', String(file.size));
      reply.header('cache-control', 'private, max-age=3600');
      return reply.send(createReadStream(media.absolutePath(file)));
    },
  );
}
