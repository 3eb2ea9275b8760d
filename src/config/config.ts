/**
 * Configuration: read from the environment once, validated, frozen. A bad value stops the process at boot
 * with a message that names the variable, rather than failing later on first use.
 * Every key is documented in docs/configuration.md with its default.
 */
import path from 'node:path';
import { normalizePhone } from '../lib/phone.ts';
import { bool, ConfigError, type Env, integer, oneOf, url, words } from './env-readers.ts';
import {
  limitsSection,
  mailSection,
  networkSections,
  simulatorSection,
  webhooksSection,
} from './sections.ts';

export { ConfigError, isLoopbackHost } from './env-readers.ts';

export type NetworkMode = 'simulator' | 'cloud';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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
  /** Connections each node keeps to PostgreSQL at most (docs/scaling.md). */
  databasePoolSize: number;
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
    /** Keep the simulated network's state in the database (docs/adr/0021); false only for load tests of a gateway. */
    keepState: boolean;
    /** Meta's throughput per business number the simulator enforces (130429 beyond); 0 = no limit. */
    maxSendsPerSecond: number;
    /** Messages one number may send one user at once before the pair limit (131056); 0 = no pair limit. */
    pairBurst: number;
    /** Webhooks the simulator may owe before its sends wait for them; null: its default (MAX_OWED). */
    maxOwedWebhooks: number | null;
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
  /**
   * Where the portal sends its one-time links by email (docs/configuration.md, Email): an smtp:// or
   * smtps:// URL with any credentials in it, and the sender; null = no email, links are only shown.
   */
  mail: { smtpUrl: string; from: string } | null;
  /** Requests per API key on /api/v1 (docs/adr/0011-rate-limits.md); null = no limit. */
  rateLimit: { perSecond: number; burst: number } | null;
  /** Create a demo account on first start with an empty database. */
  seedDemoAccount: boolean;
  /**
   * Whether anyone who reaches the portal may create an account (SIGN_UP=open). Closed by default with
   * the real network, where the sandbox is the operator's own number: accounts come from the operator
   * then (`accounts create --email`, invitations).
   */
  signUpOpen: boolean;
  /** `join <code>` attempts on the sandbox number (docs/sandbox.md): against guessing codes. */
  sandboxJoins: {
    /** Attempts one phone may make at once; it regains one a minute. */
    perPhone: number;
    /** Attempts the sandbox takes a minute from every phone together (and at once). */
    perMinute: number;
  };
  /** Traffic older than this many days is removed in the background (src/domain/retention.ts); 0 = kept. */
  retentionDays: number;
  /** Keywords that opt a user out of / back into a number's marketing (docs/opt-outs.md); null: the defaults. */
  optOutKeywords: { optOut: string[] | null; optIn: string[] | null };
  /**
   * How long a node holds a campaign's recipients it claimed (docs/campaigns.md): another node takes over
   * those a stopped node held once it runs out.
   */
  campaignLeaseMs: number;
}

/** What the environment gives; simulator credentials it leaves unset are derived from the secret key. */
export type EnvConfig = Config<string | null>;

/**
 * RETENTION_DAYS: 0 keeps everything. Otherwise at least a week: the network redelivers a webhook for up to
 * seven days, and the gateway must still know the message to take a redelivery only once.
 */
function retentionDays(env: Env): number {
  const days = integer(env, 'RETENTION_DAYS', 0, 0, 36_500);
  if (days > 0 && days < 7)
    throw new ConfigError(`RETENTION_DAYS must be 0 (keep everything) or at least 7, got "${days}"`);
  return days;
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

/**
 * The host of the links the gateway prints and sends (PUBLIC_URL's default): `localhost` when it listens
 * on loopback or on every interface, else the one address HOST names, which `localhost` would not reach.
 */
function linkHost(host: string): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (['127.0.0.1', '::1', 'localhost', '0.0.0.0', '::'].includes(bare)) return 'localhost';
  return bare.includes(':') ? `[${bare}]` : bare;
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
  const key = secretKey(env.SECRET_KEY);
  if (!key && databaseUrl.startsWith('postgres')) {
    // Several nodes must decrypt what any of them encrypted: a per-node generated key would not do.
    throw new ConfigError('SECRET_KEY is required with a PostgreSQL DATABASE_URL (64 hex characters)');
  }
  const reach = networkSections(env, network, sandboxNumber);
  const publicUrl = url('PUBLIC_URL', env.PUBLIC_URL || `http://${linkHost(host)}:${port || 3000}`);
  const config = Object.freeze({
    port,
    host,
    databaseUrl,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 20, 1, 1000),
    dataDir,
    network,
    sandboxNumber,
    logLevel: oneOf<LogLevel>(env, 'LOG_LEVEL', 'info', LOG_LEVELS),
    publicUrl,
    secretKey: key,
    graph: reach.graph,
    sandbox: reach.sandbox,
    simulator: simulatorSection(env, host, reach.simulatorAccessToken, simulatorToken(env)),
    webhooks: webhooksSection(env),
    mail: mailSection(env, publicUrl),
    ...limitsSection(env),
    http: httpTimeouts(env),
    seedDemoAccount: bool(env, 'SEED_DEMO_ACCOUNT', true),
    signUpOpen:
      oneOf(env, 'SIGN_UP', network === 'simulator' ? 'open' : 'closed', ['open', 'closed'] as const) ===
      'open',
    retentionDays: retentionDays(env),
    campaignLeaseMs: integer(env, 'CAMPAIGN_LEASE_MS', 60_000, 1_000, 3_600_000),
    optOutKeywords: Object.freeze({
      optOut: words(env, 'OPT_OUT_KEYWORDS'),
      optIn: words(env, 'OPT_IN_KEYWORDS'),
    }),
  });
  checkIdleOutlastsSends(config);
  return config;
}
