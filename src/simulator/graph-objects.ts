/**
 * Graph addresses objects by bare id: `GET /{v}/{id}`, `POST /{v}/{id}`, `DELETE /{v}/{id}` reach a phone
 * number, an uploaded media file, a message template or a flow alike (docs/cloud-api.md §4.1, §5.2, §6.1). Fastify
 * allows one route per method and path, so routes-graph.ts owns those three routes and asks each kind of
 * object, in turn, whether the id is one of its own; a phone number is the fallback.
 *
 * A kind registers here instead of adding its own `/:version/:id` route (which would collide at startup).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export type GraphMethod = 'get' | 'post' | 'delete';

/**
 * Answers a request for one of its own objects. Called only after the version and the access token were
 * checked. Returns the JSON body (status 200) or sends its own reply (an error) and returns the reply.
 */
export type GraphObjectHandler = (
  id: string,
  request: FastifyRequest,
  reply: FastifyReply,
) => unknown | Promise<unknown>;

export interface GraphObjectKind {
  /** For error messages and the README. */
  name: string;
  /** Whether `id` is an object of this kind (known to its catalog). */
  owns(id: string): boolean;
  handlers: Partial<Record<GraphMethod, GraphObjectHandler>>;
}

export class GraphObjects {
  readonly #kinds: GraphObjectKind[] = [];

  register(kind: GraphObjectKind): void {
    this.#kinds.push(kind);
  }

  /** The kind that owns `id`, if any. */
  find(id: string): GraphObjectKind | undefined {
    return this.#kinds.find((kind) => kind.owns(id));
  }
}
