/**
 * Media a virtual user sent, as the business downloads it (docs/cloud-api.md §5.2): `GET /{v}/{media-id}` answers
 * the media object with a short-lived `url`; `GET <url>` with the same Bearer token answers the bytes;
 * `DELETE /{v}/{media-id}` forgets the file. The Graph id routes are shared (graph-objects.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sameSecret } from '../lib/same-secret.ts';
import { graphError, invalidTokenError } from './graph-errors.ts';
import type { GraphObjects } from './graph-objects.ts';
import type { MediaLinks } from './media-links.ts';
import type { MediaVault } from './media-vault.ts';
import { fieldOf, pathParam } from './request-fields.ts';

export interface MediaRouteDeps {
  accessToken: string;
  vault: MediaVault;
  objects: GraphObjects;
  links: MediaLinks;
}

/** Where the simulator is reached for this request: scheme, host and the prefix it is mounted under. */
export function simulatorBase(request: FastifyRequest, prefix: string): string {
  return `${request.protocol}://${request.host}${prefix}`;
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
  // The prefix the simulator is mounted under (`/simulator`), known once the plugin is registered.
  const prefix = app.prefix;
  const downloadUrl = (request: FastifyRequest, id: string) =>
    deps.links.urlFor(simulatorBase(request, prefix), id);

  registerMediaObject(deps, downloadUrl);

  app.get('/media-download/:id', async (request, reply) => {
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
    if (!sameSecret(token, deps.accessToken)) {
      const error = invalidTokenError(token);
      return reply.code(error.httpStatus).send(error.body);
    }
    const id = pathParam(request.params, 'id');
    const media = deps.vault.get(id);
    const valid = deps.links.isValid(
      id,
      fieldOf(request.query, 'expires'),
      fieldOf(request.query, 'signature'),
    );
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
