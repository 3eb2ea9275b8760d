/**
 * `GET /`: a person who opens the gateway's address in a browser lands on the portal, not on a JSON 404.
 * A redirect that is not permanent (302): the portal's address may change, the root's meaning may not.
 */
import type { TypedApp } from '../../typed-app.ts';

export function registerHome(app: TypedApp): void {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/app', 302));
}
