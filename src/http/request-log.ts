/**
 * What the log says of a request: Fastify's default fields, with the value of every query parameter
 * whose name ends in "token" masked (`?token=` of the simulator's phone page, Graph's `?access_token=`,
 * Meta's `hub.verify_token`). Secrets never reach the log, whatever the level (docs/operations.md).
 */
import type { FastifyRequest } from 'fastify';

const SECRET_PARAM = /token$/i;

export function maskUrlSecrets(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const params = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {}
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=***` : pair;
    });
  return `${url.slice(0, at)}?${params.join('&')}`;
}

export function requestLogSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: maskUrlSecrets(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
