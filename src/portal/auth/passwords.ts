/**
 * Password hashing with node:crypto scrypt: a random 16-byte salt per password, the cost parameters
 * stored with the hash (`scrypt$N$r$p$salt$hash`, base64url) so they can be raised later without
 * invalidating existing hashes, and a constant-time comparison.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * N = 2^15 costs tens of milliseconds a sign-in and 32 MiB of memory: cheap for people, dear for guessing.
 * Every gateway hashes new passwords with these; only a gateway a test suite builds in its own process is
 * given cheaper ones (test/support/gateway.ts), as a hash says its own cost and verifies at it.
 */
export const PASSWORD_HASH_PARAMS: Readonly<ScryptParams> = { N: 32768, r: 8, p: 1 };
const KEY_LENGTH = 32;

export const PASSWORD_MIN_LENGTH = 12;
/** scrypt reads all of it; an upper bound keeps a megabyte "password" from costing the server. */
export const PASSWORD_MAX_LENGTH = 1024;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** What is wrong with a new password, in a sentence for the form; undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < PASSWORD_MIN_LENGTH)
    return `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `The password may be at most ${PASSWORD_MAX_LENGTH} characters.`;
  return undefined;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** How the portal hashes passwords: at its cost, and the stand-in hash verified for an unknown email. */
export interface PasswordHashing {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /**
   * A hash no password matches, verified when the email is unknown: the answer then takes as long as for
   * a known email, so timing does not tell which emails have users.
   */
  forUnknownUser(): Promise<string>;
}

export function passwordHashing(params: Readonly<ScryptParams> = PASSWORD_HASH_PARAMS): PasswordHashing {
  const hash = async (password: string) => {
    const salt = randomBytes(16);
    const key = await derive(password, salt, params);
    const parts = [
      'scrypt',
      params.N,
      params.r,
      params.p,
      salt.toString('base64url'),
      key.toString('base64url'),
    ];
    return parts.join('$');
  };
  let unknownUserHash: Promise<string> | undefined;
  return {
    hash,
    verify: verifyPassword,
    forUnknownUser() {
      unknownUserHash ??= hash(randomBytes(32).toString('base64url'));
      return unknownUserHash;
    },
  };
}
