/**
 * API keys and join codes (network tokens and webhook secrets are sealed at rest by src/lib/sealed-secrets.ts).
 * Keys are random, shown once, and stored as SHA-256 hashes: a leaked database gives no usable key. The
 * hash is unsalted on purpose: keys carry 190 bits of randomness, so there is nothing to brute-force, and
 * an unsalted hash can be looked up directly by index on every request.
 */
import { hash, randomBytes, randomInt } from 'node:crypto';

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
  return hash('sha256', key, 'hex');
}

/**
 * Words a person types on a phone: short, lowercase, unambiguous. 256 of them, so each word of a join code
 * carries 8 bits.
 */
export const JOIN_CODE_WORDS: readonly string[] = `
  acorn agate alder almond amber anchor anise apex apple arrow ash aspen atlas aurora autumn badger bamboo
  banjo barley basil bay beacon beech berry birch bison blaze blossom bluff bramble breeze bronze brook
  buffalo butter cactus camel canary canyon caramel carbon cashew castle cedar chalk cherry chestnut cider
  cinder citrus cloud clover cobalt comet copper coral cotton cougar cove coyote crane cricket crystal
  cypress daisy dawn deer delta dingo dolphin dove dragon dune dusk eagle echo elk elm ember emerald ermine
  fable falcon feather fern ferry fig finch fir fjord flame flint fox frost galaxy garden garnet gecko
  ginger glacier glade granite grape grove gull harbor hawk hazel heather hemlock heron hickory honey
  horizon ibis icicle indigo iris island ivory ivy jade jasmine jasper jet jungle juniper kale kelp kestrel
  kiwi koala lagoon lantern lark laurel lava lemon lilac lily lime linen llama lotus lynx magnet mango
  maple marble marsh meadow mesa meteor mint mocha moon moor moss nectar nova nutmeg oak oasis ocean olive
  onyx opal orbit orchid osprey otter owl panda papaya parrot peach pearl pebble pepper petal pigeon pine
  planet plum plume pond poppy prairie prism puffin quail quartz rain raven reef ridge river robin rocket
  rook rose ruby rye saffron sage salmon sand sapphire satin sequoia shell sierra silver slate sparrow
  spice spring spruce star stone storm summit sun swift sycamore tango teal thistle thorn thunder tide
  tiger timber topaz tulip tundra umber vale valley vanilla velvet violet walnut wave whale wheat willow
  wind winter wren yak yarrow yew zebra zephyr zinc
`
  .trim()
  .split(/\s+/);

/**
 * A sandbox join code, e.g. `amber-falcon-cedar-048213`: three words and six digits, all from the
 * cryptographic generator, 3 × 8 + log2(10^6) ≈ 43.9 bits. Anyone may send `join <code>` to the shared
 * sandbox number and a hit tells them the business's name, so codes must not be guessable even with
 * many phones; attempts are limited too (src/domain/join-limits.ts, docs/sandbox.md).
 * Codes of the shorter earlier form (`amber-falcon-123`) stay valid: a code is looked up as it is.
 */
export function generateJoinCode(): string {
  const word = () => JOIN_CODE_WORDS[randomInt(JOIN_CODE_WORDS.length)];
  const digits = String(randomInt(1_000_000)).padStart(6, '0');
  return `${word()}-${word()}-${word()}-${digits}`;
}

/** A webhook signing secret: `whsec_` + base64 of 24 random bytes (src/events/signing.ts signs with it). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
