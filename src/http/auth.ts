/**
 * API-key authentication for every /api/v1 route: the `apiKey` header, hashed and looked up by index.
 * A missing, unknown or revoked key gets the documented 401 body.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../domain/errors.ts';
import type { AccountsStore } from '../domain/ports/accounts.ts';
import { hashApiKey } from '../domain/secrets.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated account; set by the auth hook before any /api/v1 handler runs. */
    accountId: string;
    /** The id of the API key that authenticated the request (rate limits are per key). */
    apiKeyId: string;
  }
}

export function installApiKeyAuth(scope: FastifyInstance, accounts: AccountsStore): void {
  scope.decorateRequest('accountId', '');
  scope.decorateRequest('apiKeyId', '');
  scope.addHook('onRequest', async (request: FastifyRequest) => {
    const header = request.headers.apikey;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || key.length > 200) throw new GatewayError('unauthenticated', 'Invalid credentials');
    const owner = await accounts.findLiveKeyOwner(hashApiKey(key));
    if (!owner) throw new GatewayError('unauthenticated', 'Invalid credentials');
    request.accountId = owner.accountId;
    request.apiKeyId = owner.keyId;
  });
}
