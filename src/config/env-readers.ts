/**
 * Reading one environment variable: its default when unset or empty, and a ConfigError that names the
 * variable and the rule when it is set wrong, so a bad value stops the start with a sentence.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

export function integer(env: Env, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${key} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function oneOf<T extends string>(env: Env, key: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${key} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${key} must be true or false, got "${raw}"`);
}

/**
 * A comma-separated list of words (`STOP,ARRET`), each 1–32 letters, trimmed; null when unset, so the
 * caller's default applies.
 */
export function words(env: Env, key: string): string[] | null {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return null;
  const list = raw.split(',').map((w) => w.trim());
  const bad = list.find((w) => !/^\p{L}{1,32}$/u.test(w));
  if (bad !== undefined || list.length > 50) {
    throw new ConfigError(
      `${key} must be a comma-separated list of at most 50 words of 1 to 32 letters, got "${raw}"`,
    );
  }
  return list;
}

/** An http(s) URL, without trailing slashes. */
export function url(key: string, raw: string): string {
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('protocol');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`${key} must be an http(s) URL, got "${raw}"`);
  }
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`: addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  return /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}
