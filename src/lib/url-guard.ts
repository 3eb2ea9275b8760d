/**
 * Guards customer-supplied webhook URLs: `https://` only, and never an address inside this network
 * (loopback, private, link-local, CGNAT, multicast, unspecified), unless WEBHOOK_ALLOW_PRIVATE_URLS is set
 * (development and tests). The address check runs at connect time, on the address actually dialled, so
 * a DNS answer that changes after the URL was accepted (DNS rebinding) is caught too.
 */
import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent } from 'undici';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
// Besides loopback, unique-local, site-local (deprecated, still routed inside some networks), link-local
// and multicast: the prefixes that embed an IPv4 address (IPv4-compatible, IPv4-translated, NAT64, 6to4,
// Teredo), which a translator or a tunnel may turn into an address inside the network.
for (const [net, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

/** How an operator allows local receivers (development, a receiver on the same private network). */
const ALLOW_HINT =
  '(to allow http:// and private addresses, e.g. a receiver on this machine, set WEBHOOK_ALLOW_PRIVATE_URLS=true)';

/** Structural check at creation time; returns the reason a URL is refused, or null. */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  // The URL parser takes port 0, but no server listens on it: every delivery would fail.
  if (url.port === '0') return 'must not name port 0';
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    return `must start with https:// ${ALLOW_HINT}`;
  // `localhost.` is `localhost`: a fully qualified name's final dots do not change where it leads.
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  if (
    !allowPrivate &&
    (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && isPrivateAddress(host)))
  ) {
    return `must not point at a private, loopback or link-local address ${ALLOW_HINT}`;
  }
  return null;
}

/** An HTTP agent whose connections refuse private addresses (unless allowed). */
export function guardedAgent(allowPrivate: boolean, timeoutMs: number): Agent {
  return new Agent({
    connect: {
      timeout: timeoutMs,
      lookup: (hostname, options, callback) => {
        dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
          if (error) return callback(error, [], 0);
          const list = addresses as dns.LookupAddress[];
          const allowed = allowPrivate ? list : list.filter((a) => !isPrivateAddress(a.address));
          if (allowed.length === 0) {
            const refused = Object.assign(new Error(`${hostname} resolves only to private addresses`), {
              code: 'EPRIVATEADDR',
            });
            return callback(refused, [], 0);
          }
          if (options.all) return callback(null, allowed, 0);
          return callback(null, allowed[0]!.address, allowed[0]!.family);
        });
      },
    },
    keepAliveTimeout: 10_000,
  });
}
