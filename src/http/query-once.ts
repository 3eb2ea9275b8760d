/**
 * A query parameter given more than once (`?page=1&page=2`) is refused by name, before any rule of its
 * own is checked: no API operation takes a list in the query, and the rule of one value ("must be a whole
 * number") would not tell the client what is wrong with two.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../domain/errors.ts';

export function installQueryOnce(scope: FastifyInstance): void {
  scope.addHook('preValidation', async (request) => {
    const query = request.query;
    if (typeof query !== 'object' || query === null) return;
    for (const [name, value] of Object.entries(query)) {
      if (!Array.isArray(value)) continue;
      const shown = name.replace(/[^\x20-\x7e]/g, '').slice(0, 64);
      throw new GatewayError(
        'invalid_request',
        `query parameter \`${shown}\` is given ${value.length} times; give it once`,
        { field: shown },
      );
    }
  });
}
