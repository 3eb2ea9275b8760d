/**
 * API keys, join codes and encryption of network tokens at rest.
 * Keys are random, shown once, and stored as SHA-256 hashes: a leaked database gives no usable key. The
 * hash is unsalted on purpose: keys carry 190 bits of randomness, so there is nothing to brute-force, and
 * an unsalted hash can be looked up directly by index on every request.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';

const KEY_PREFIX = 'sb_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomString(length: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(): NewApiKey {
  const key = KEY_PREFIX + randomString(32, BASE62);
  return { key, prefix: key.slice(0, KEY_PREFIX.length + 6), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Words a person types on a phone: two short lowercase words joined by a dash, e.g. `amber-falcon`. */
const WORDS = [
  'amber',
  'apple',
  'arrow',
  'aspen',
  'basil',
  'birch',
  'bison',
  'blaze',
  'brook',
  'cedar',
  'chalk',
  'cider',
  'cloud',
  'cobalt',
  'coral',
  'crane',
  'delta',
  'dune',
  'eagle',
  'ember',
  'falcon',
  'fern',
  'fjord',
  'flint',
  'frost',
  'garnet',
  'gecko',
  'glade',
  'harbor',
  'hazel',
  'heron',
  'indigo',
  'iris',
  'jade',
  'juniper',
  'kelp',
  'lark',
  'lemon',
  'lilac',
  'linen',
  'lotus',
  'lynx',
  'maple',
  'marsh',
  'meadow',
  'mint',
  'moss',
  'nectar',
  'nova',
  'oak',
  'olive',
  'onyx',
  'orbit',
  'otter',
  'pearl',
  'pine',
  'plume',
  'prism',
  'quartz',
  'raven',
  'reef',
  'ridge',
  'river',
  'robin',
  'saffron',
  'sage',
  'shell',
  'slate',
  'spruce',
  'stone',
  'swift',
  'thorn',
  'tide',
  'topaz',
  'tulip',
  'umber',
  'vale',
  'velvet',
  'willow',
  'wren',
  'zephyr',
];

export function generateJoinCode(): string {
  return `${WORDS[randomInt(WORDS.length)]}-${WORDS[randomInt(WORDS.length)]}-${randomInt(100, 1000)}`;
}

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. The version lets the scheme change later. */
export function encryptSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decryptSecret(sealed: string, key: Buffer): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unrecognised sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
