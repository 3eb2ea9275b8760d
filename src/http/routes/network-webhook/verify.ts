/**
 * `GET /webhooks/network`: the network's verification handshake (see index.ts). The query is read field by
 * field; anything but the expected mode, the configured verify token and a challenge is a 403.
 */
import type { TypedApp } from '../../typed-app.ts';

/** One query value as text; a missing or repeated (array) value is none. */
function queryText(query: unknown, name: string): string | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  const value: unknown = Reflect.get(query, name);
  return typeof value === 'string' ? value : undefined;
}

export function registerVerifyNetworkWebhook(app: TypedApp, verifyToken: string): void {
  app.get('/webhooks/network', { schema: { hide: true } }, async (request, reply) => {
    const challenge = queryText(request.query, 'hub.challenge');
    if (
      queryText(request.query, 'hub.mode') === 'subscribe' &&
      queryText(request.query, 'hub.verify_token') === verifyToken &&
      challenge
    ) {
      return reply.type('text/plain').send(challenge);
    }
    return reply.code(403).type('text/plain').send('verification failed');
  });
}
