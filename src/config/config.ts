/**
 * Configuration: read from the environment once, validated, frozen. A bad value stops the process at boot
 * with a message that names the variable, rather than failing later on first use.
 * Every key is documented in docs/configuration.md with its default.
 */
import path from 'node:path';
import { parseDelayList } from '../lib/delay-list.ts';
import { normalizePhone } from '../lib/phone.ts';

export type NetworkMode = 'simulator' | 'cloud';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * The configuration. `Secret` is the type of the simulator-mode credentials an install derives from its
 * secret key (src/config/simulator-secrets.ts): loadConfig leaves them null when the environment does not
 * set them, since the key may live in DATA_DIR and is read only when the gateway is built;
 * withInstallSecrets fills them in. Everything past that point sees `Config` with plain strings.
 */
export interface Config<Secret extends string | null = string> {
  port: number;
  /** Interface to listen on: loopback by default in simulator mode, every interface in cloud mode. */
  host: string;
  databaseUrl: string;
  dataDir: string;
  network: NetworkMode;
  /** E.164 digits of the shared sandbox number. */
  sandboxNumber: string;
  logLevel: LogLevel;
  /** Base address users and links see; defaults to http://localhost:PORT. */
  publicUrl: string;
  /** 32-byte key that encrypts network tokens at rest; null = generate and keep one in DATA_DIR (SQLite only). */
  secretKey: Buffer | null;
  graph: {
    /** Graph API base URL; null = the simulator mounted in this very process (its port is known at listen). */
    baseUrl: string | null;
    apiVersion: string;
    /** Meta app secret: verifies X-Hub-Signature-256 of inbound webhooks (and signs them in the simulator). */
    appSecret: Secret;
    /** Token Meta must echo in the webhook verification handshake. */
    verifyToken: string;
    timeoutMs: number;
    /** Sends per second per business number the gateway paces itself to (docs/adr/0010); 0 = no pacing. */
    maxSendsPerSecond: number;
    /** The longest a send waits for its paced slot before it is refused with 503 (nothing sent). */
    maxPacingWaitMs: number;
    /** Tries in all of a call that failed in a way that is safe to retry, and the time they must fit in. */
    retryAttempts: number;
    retryBudgetMs: number;
    /** How long a send whose outcome is unknown waits for a network status report before it is FAILED. */
    unknownOutcomeMs: number;
  };
  sandbox: {
    /** Graph phone-number id of the sandbox number (simulator: its own digits). */
    phoneNumberId: string;
    accessToken: Secret;
    /** The WhatsApp Business Account of the sandbox number (templates, flows); simulator: its phone-number id. */
    wabaId: string | null;
  };
  simulator: {
    /** The Bearer token of the simulated Graph API (what Meta's access tokens are to the Cloud API). */
    accessToken: Secret;
    /** Opens the simulator's own routes (phone page, users, faults) when they are private. */
    token: Secret;
    /** Whether the simulator's own routes need `token`: HOST is not loopback, or SIMULATOR_TOKEN is set. */
    requireToken: boolean;
    statusDelayMs: number;
    /** How long the simulated network takes to review a template. */
    templateReviewDelayMs: number;
    /** Where the simulator posts its webhooks; null = this process's own /webhooks/network. */
    webhookUrl: string | null;
    /** Whether the simulator posts status webhooks (off only to load-test the send path alone). */
    postStatuses: boolean;
    /** Meta's throughput per business number the simulator enforces (130429 beyond); 0 = no limit. */
    maxSendsPerSecond: number;
    /** Messages one number may send one user at once before the pair limit (131056); 0 = no pair limit. */
    pairBurst: number;
  };
  webhooks: {
    /** Delays between delivery attempts, after the first. */
    retryScheduleMs: number[];
    /** Lets webhook URLs be http:// and point at private or loopback addresses (development, tests). */
    allowPrivateUrls: boolean;
    timeoutMs: number;
    /** An endpoint that has failed without any success for this long is disabled. */
    disableAfterMs: number;
    /** Deliveries this node runs at once: in all, per account, per endpoint (docs/adr/0015). */
    concurrency: { total: number; perAccount: number; perEndpoint: number };
  };
  /** Largest JSON body accepted, in bytes (docs/contract.md §2: a clear 413 past it). */
  bodyLimitBytes: number;
  /** Bytes of uploaded template header files one account may keep (media users send is not counted). */
  mediaQuotaBytesPerAccount: number;
  /** Largest signed network webhook accepted on /webhooks/network: the network batches, up to a few MB. */
  networkWebhookBodyLimitBytes: number;
  /** How long a client may take over a request (docs/configuration.md, Timeouts). */
  http: {
    /** The whole request, headers and body, must arrive within it (408 past it). */
    requestTimeoutMs: number;
    /** The request line and headers must arrive within it. */
    headersTimeoutMs: number;
    /** An idle keep-alive connection is closed after it. */
    keepAliveTimeoutMs: number;
    /** A connection on which nothing is read or written for this long is closed. */
    idleTimeoutMs: number;
  };
  /** Requests per API key on /api/v1 (docs/adr/0011-rate-limits.md); null = no limit. */
  rateLimit: { perSecond: number; burst: number } | null;
  /** Create a demo account on first start with an empty database. */
  seedDemoAccount: boolean;
  /** `join <code>` attempts on the sandbox number (docs/sandbox.md): against guessing codes. */
  sandboxJoins: {
    /** Attempts one phone may make at once; it regains one a minute. */
    perPhone: number;
    /** Attempts the sandbox takes a minute from every phone together (and at once). */
    perMinute: number;
  };
}

/** What the environment gives; simulator credentials it leaves unset are derived from the secret key. */
export type EnvConfig = Config<string | null>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function integer(env: Env, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${key} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, key: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${key} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${key} must be true or false, got "${raw}"`);
}

/** The phone page's live stream sends a comment every 15 s; an idle timeout must leave it room. */
const MIN_IDLE_TIMEOUT_MS = 20_000;

function httpTimeouts(env: Env): Config['http'] {
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 120_000, 100, 3_600_000);
  const defaultHeadersMs = Math.min(20_000, requestTimeoutMs);
  return Object.freeze({
    requestTimeoutMs,
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', defaultHeadersMs, 100, requestTimeoutMs),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 1_000, 600_000),
    idleTimeoutMs: integer(env, 'IDLE_TIMEOUT_MS', 300_000, MIN_IDLE_TIMEOUT_MS, 3_600_000),
  });
}

/**
 * A send may wait this long for the network without a byte on its connection; the idle timeout must not
 * cut it off before its answer (the client would not learn whether the message went out).
 */
function checkIdleOutlastsSends(config: Readonly<EnvConfig>): void {
  const { maxPacingWaitMs, retryBudgetMs, timeoutMs } = config.graph;
  const longest = maxPacingWaitMs + retryBudgetMs + timeoutMs;
  if (config.http.idleTimeoutMs <= longest) {
    throw new ConfigError(
      `IDLE_TIMEOUT_MS must be longer than NETWORK_MAX_PACING_WAIT_MS + NETWORK_RETRY_BUDGET_MS + NETWORK_TIMEOUT_MS (${longest}), got "${config.http.idleTimeoutMs}"`,
    );
  }
}

function url(key: string, raw: string): string {
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('protocol');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`${key} must be an http(s) URL, got "${raw}"`);
  }
}

/** A token that fits an `Authorization: Bearer` header and a cookie as it is, and is not short. */
function simulatorToken(env: Env): string | null {
  const raw = env.SIMULATOR_TOKEN;
  if (!raw) return null;
  if (!/^[A-Za-z0-9._~+/-]{16,256}=*$/.test(raw)) {
    throw new ConfigError(
      'SIMULATOR_TOKEN must be 16 to 256 letters, digits or - . _ ~ + / (unset: one is derived per install)',
    );
  }
  return raw;
}

function secretKey(raw: string | undefined): Buffer | null {
  if (!raw) return null;
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError('SECRET_KEY must be 32 bytes, as 64 hex characters or base64');
  return key;
}

/** The default sandbox number: a valid (libphonenumber) US number reserved for fiction. */
export const DEFAULT_SANDBOX_NUMBER = '14155550100';

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`: addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  return /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

export function loadConfig(env: Env = process.env): Readonly<EnvConfig> {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const network = oneOf<NetworkMode>(env, 'NETWORK', 'simulator', ['simulator', 'cloud']);
  // The simulator lets anyone who reaches it read every virtual phone and inject faults: private unless
  // the operator chooses an address (and then its own routes need SIMULATOR_TOKEN, see docs/simulator.md).
  const host = env.HOST || (network === 'simulator' ? '127.0.0.1' : '0.0.0.0');
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const databaseUrl = env.DATABASE_URL || `sqlite:${path.join(dataDir, 'switchboard.db')}`;
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl}"`);
  }
  const sandboxNumber = normalizePhone(env.SANDBOX_NUMBER || DEFAULT_SANDBOX_NUMBER);
  if (!sandboxNumber) throw new ConfigError(`SANDBOX_NUMBER must be a valid phone number with country code`);
  const publicUrl = url('PUBLIC_URL', env.PUBLIC_URL || `http://localhost:${port || 3000}`);
  // Unset simulator credentials are null here: each install derives its own (simulator-secrets.ts).
  const simulatorAccessToken = env.SIMULATOR_ACCESS_TOKEN || null;

  let graphBaseUrl: string | null;
  const appSecret: string | null = env.NETWORK_APP_SECRET || null;
  let sandboxPhoneNumberId = env.SANDBOX_PHONE_NUMBER_ID || '';
  let sandboxToken: string | null = env.SANDBOX_ACCESS_TOKEN || null;
  if (network === 'simulator') {
    // The simulator is mounted in this process; its phone-number id convention is the number's digits.
    graphBaseUrl = env.GRAPH_BASE_URL ? url('GRAPH_BASE_URL', env.GRAPH_BASE_URL) : null;
    sandboxPhoneNumberId ||= sandboxNumber;
    sandboxToken ||= simulatorAccessToken;
  } else {
    graphBaseUrl = url('GRAPH_BASE_URL', env.GRAPH_BASE_URL || 'https://graph.facebook.com');
    const missing = [
      !appSecret && 'NETWORK_APP_SECRET',
      !sandboxPhoneNumberId && 'SANDBOX_PHONE_NUMBER_ID',
      !sandboxToken && 'SANDBOX_ACCESS_TOKEN',
    ].filter(Boolean);
    if (missing.length) throw new ConfigError(`NETWORK=cloud needs ${missing.join(', ')}`);
  }
  const key = secretKey(env.SECRET_KEY);
  if (!key && databaseUrl.startsWith('postgres')) {
    // Several nodes must decrypt what any of them encrypted: a per-node generated key would not do.
    throw new ConfigError('SECRET_KEY is required with a PostgreSQL DATABASE_URL (64 hex characters)');
  }

  let retryScheduleMs: number[];
  try {
    retryScheduleMs = parseDelayList(env.WEBHOOK_RETRY_SCHEDULE || '5s,5m,30m,2h,5h,10h,10h');
  } catch (error) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE ${(error as Error).message}`);
  }

  // Each cap is at most the one above it, so every value set is also the one that applies.
  const webhookTotal = integer(env, 'WEBHOOK_CONCURRENCY', 64, 1, 10_000);
  const webhookPerAccount = integer(
    env,
    'WEBHOOK_CONCURRENCY_PER_ACCOUNT',
    Math.min(16, webhookTotal),
    1,
    webhookTotal,
  );
  const webhookPerEndpoint = integer(
    env,
    'WEBHOOK_CONCURRENCY_PER_ENDPOINT',
    Math.min(16, webhookPerAccount),
    1,
    webhookPerAccount,
  );

  // 0 turns the limit off (load tests); the burst defaults to two seconds' worth of requests.
  const ratePerSecond = integer(env, 'RATE_LIMIT_PER_SECOND', 100, 0, 1_000_000);
  const rateBurst = integer(env, 'RATE_LIMIT_BURST', Math.max(1, 2 * ratePerSecond), 1, 1_000_000);

  const config = Object.freeze({
    port,
    host,
    databaseUrl,
    dataDir,
    network,
    sandboxNumber,
    logLevel: oneOf<LogLevel>(env, 'LOG_LEVEL', 'info', [
      'fatal',
      'error',
      'warn',
      'info',
      'debug',
      'trace',
      'silent',
    ]),
    publicUrl,
    secretKey: key,
    graph: Object.freeze({
      baseUrl: graphBaseUrl,
      apiVersion: env.GRAPH_API_VERSION || 'v23.0',
      appSecret,
      verifyToken: env.NETWORK_VERIFY_TOKEN || 'switchboard-verify-token',
      timeoutMs: integer(env, 'NETWORK_TIMEOUT_MS', 10_000, 100, 120_000),
      // Meta's default throughput tier is 80 messages/s per number; 0 turns pacing off (load tests, higher tiers).
      maxSendsPerSecond: integer(env, 'NETWORK_MAX_SENDS_PER_SECOND', 80, 0, 100_000),
      maxPacingWaitMs: integer(env, 'NETWORK_MAX_PACING_WAIT_MS', 2_000, 0, 60_000),
      retryAttempts: integer(env, 'NETWORK_RETRY_ATTEMPTS', 3, 1, 10),
      retryBudgetMs: integer(env, 'NETWORK_RETRY_BUDGET_MS', 2_000, 0, 60_000),
      // The network reports a message it took within seconds; a day is the longest an answer may wait.
      unknownOutcomeMs: integer(env, 'NETWORK_UNKNOWN_OUTCOME_MS', 300_000, 1_000, 86_400_000),
    }),
    sandbox: Object.freeze({
      phoneNumberId: sandboxPhoneNumberId,
      accessToken: sandboxToken,
      // Each simulated business number is its own WABA, whose id is the phone-number id.
      wabaId: env.SANDBOX_WABA_ID || (network === 'simulator' ? sandboxPhoneNumberId : null),
    }),
    simulator: Object.freeze({
      accessToken: simulatorAccessToken,
      token: simulatorToken(env),
      requireToken: !isLoopbackHost(host) || Boolean(env.SIMULATOR_TOKEN),
      statusDelayMs: integer(env, 'SIMULATOR_STATUS_DELAY_MS', 500, 0, 60_000),
      templateReviewDelayMs: integer(env, 'SIMULATOR_TEMPLATE_REVIEW_MS', 1000, 0, 600_000),
      webhookUrl: env.SIMULATOR_WEBHOOK_URL ? url('SIMULATOR_WEBHOOK_URL', env.SIMULATOR_WEBHOOK_URL) : null,
      postStatuses: bool(env, 'SIMULATOR_STATUS_WEBHOOKS', true),
      maxSendsPerSecond: integer(env, 'SIMULATOR_MAX_SENDS_PER_SECOND', 80, 0, 100_000),
      pairBurst: integer(env, 'SIMULATOR_PAIR_BURST', 45, 0, 100_000),
    }),
    webhooks: Object.freeze({
      retryScheduleMs,
      allowPrivateUrls: bool(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000),
      disableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 120, 1, 24 * 365) * 3_600_000,
      concurrency: Object.freeze({
        total: webhookTotal,
        perAccount: webhookPerAccount,
        perEndpoint: webhookPerEndpoint,
      }),
    }),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 256 * 1024, 1024, 64 * 1024 * 1024),
    mediaQuotaBytesPerAccount: integer(
      env,
      'MEDIA_QUOTA_BYTES_PER_ACCOUNT',
      1024 * 1024 * 1024,
      0,
      Number.MAX_SAFE_INTEGER,
    ),
    networkWebhookBodyLimitBytes: integer(
      env,
      'NETWORK_WEBHOOK_BODY_LIMIT_BYTES',
      3 * 1024 * 1024,
      64 * 1024,
      64 * 1024 * 1024,
    ),
    http: httpTimeouts(env),
    rateLimit: ratePerSecond === 0 ? null : Object.freeze({ perSecond: ratePerSecond, burst: rateBurst }),
    seedDemoAccount: bool(env, 'SEED_DEMO_ACCOUNT', true),
    sandboxJoins: Object.freeze({
      perPhone: integer(env, 'SANDBOX_JOIN_ATTEMPTS_PER_PHONE', 5, 1, 1000),
      perMinute: integer(env, 'SANDBOX_JOIN_ATTEMPTS_PER_MINUTE', 60, 1, 1_000_000),
    }),
  });
  checkIdleOutlastsSends(config);
  return config;
}
