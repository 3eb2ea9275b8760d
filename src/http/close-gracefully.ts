/**
 * Closing the server the way docs/operations.md (Shutdown) promises: no new requests, requests in flight
 * finish, then every connection is closed. Node closes the connections that are idle when closing starts;
 * a keep-alive connection whose request finishes after that would stay open until its keep-alive timeout
 * (72 s) and hold the shutdown with it. So idle connections are closed again until the server is closed.
 */
import type { FastifyInstance } from 'fastify';

const SWEEP_MS = 50;

export async function closeGracefully(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), SWEEP_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}
