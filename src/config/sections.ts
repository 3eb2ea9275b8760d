/**
 * The parts of the configuration that take several variables together (src/config/config.ts composes
 * them): how the network is reached, the simulator, webhooks, and the limits on what clients may send.
 * Defaults and meanings are in docs/configuration.md.
 */
import { parseDelayList } from '../lib/delay-list.ts';
import type { Config, EnvConfig, NetworkMode } from './config.ts';
import { bool, ConfigError, type Env, integer, isLoopbackHost, url } from './env-readers.ts';

type Reach = Pick<EnvConfig, 'graph' | 'sandbox'> & { simulatorAccessToken: string | null };

/** The Graph API and the sandbox number's credentials: the simulator's unless NETWORK=cloud. */
export function networkSections(env: Env, network: NetworkMode, sandboxNumber: string): Reach {
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
  return {
    simulatorAccessToken,
    graph: Object.freeze({
      baseUrl: graphBaseUrl,
      apiVersion: env.GRAPH_API_VERSION || 'v23.0',
      appSecret,
      verifyToken: env.NETWORK_VERIFY_TOKEN || 'switchboard-verify-token',
      timeoutMs: integer(env, 'NETWORK_TIMEOUT_MS', 10_000, 100, 120_000),
      // Meta's default throughput tier is 80 messages/s per number; 0 turns pacing off (load tests).
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
  };
}

export function simulatorSection(
  env: Env,
  host: string,
  accessToken: string | null,
  token: string | null,
): EnvConfig['simulator'] {
  return Object.freeze({
    accessToken,
    token,
    requireToken: !isLoopbackHost(host) || Boolean(env.SIMULATOR_TOKEN),
    statusDelayMs: integer(env, 'SIMULATOR_STATUS_DELAY_MS', 500, 0, 60_000),
    templateReviewDelayMs: integer(env, 'SIMULATOR_TEMPLATE_REVIEW_MS', 1000, 0, 600_000),
    webhookUrl: env.SIMULATOR_WEBHOOK_URL ? url('SIMULATOR_WEBHOOK_URL', env.SIMULATOR_WEBHOOK_URL) : null,
    postStatuses: bool(env, 'SIMULATOR_STATUS_WEBHOOKS', true),
    keepState: bool(env, 'SIMULATOR_KEEP_STATE', true),
    maxSendsPerSecond: integer(env, 'SIMULATOR_MAX_SENDS_PER_SECOND', 80, 0, 100_000),
    pairBurst: integer(env, 'SIMULATOR_PAIR_BURST', 45, 0, 100_000),
    // Unset: the simulator's own default (MAX_OWED in src/simulator/webhook-poster.ts).
    maxOwedWebhooks: env.SIMULATOR_MAX_OWED_WEBHOOKS
      ? integer(env, 'SIMULATOR_MAX_OWED_WEBHOOKS', 1, 1, 10_000_000)
      : null,
  });
}

export function webhooksSection(env: Env): Config['webhooks'] {
  let retryScheduleMs: number[];
  try {
    retryScheduleMs = parseDelayList(env.WEBHOOK_RETRY_SCHEDULE || '5s,5m,30m,2h,5h,10h,10h');
  } catch (error) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE ${(error as Error).message}`);
  }
  // Each cap is at most the one above it, so every value set is also the one that applies. By default one
  // endpoint takes at most half of its account's share: a hanging receiver leaves the other half to the
  // account's other endpoints (docs/adr/0015-webhook-delivery-concurrency.md).
  const total = integer(env, 'WEBHOOK_CONCURRENCY', 64, 1, 10_000);
  const perAccount = integer(env, 'WEBHOOK_CONCURRENCY_PER_ACCOUNT', Math.min(32, total), 1, total);
  const perEndpoint = integer(
    env,
    'WEBHOOK_CONCURRENCY_PER_ENDPOINT',
    Math.max(1, Math.min(16, Math.floor(perAccount / 2))),
    1,
    perAccount,
  );
  return Object.freeze({
    retryScheduleMs,
    allowPrivateUrls: bool(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000),
    disableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 120, 1, 24 * 365) * 3_600_000,
    concurrency: Object.freeze({ total, perAccount, perEndpoint }),
  });
}

const MB = 1024 * 1024;

/** What clients may send: body sizes, the media quota, requests per key, sandbox joins. */
export function limitsSection(
  env: Env,
): Pick<
  Config,
  | 'bodyLimitBytes'
  | 'mediaQuotaBytesPerAccount'
  | 'networkWebhookBodyLimitBytes'
  | 'rateLimit'
  | 'sandboxJoins'
> {
  // 0 turns the limit off (load tests); the burst defaults to two seconds' worth of requests.
  const perSecond = integer(env, 'RATE_LIMIT_PER_SECOND', 100, 0, 1_000_000);
  const burst = integer(env, 'RATE_LIMIT_BURST', Math.max(1, 2 * perSecond), 1, 1_000_000);
  return {
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 256 * 1024, 1024, 64 * MB),
    mediaQuotaBytesPerAccount: integer(
      env,
      'MEDIA_QUOTA_BYTES_PER_ACCOUNT',
      1024 * MB,
      0,
      Number.MAX_SAFE_INTEGER,
    ),
    networkWebhookBodyLimitBytes: integer(
      env,
      'NETWORK_WEBHOOK_BODY_LIMIT_BYTES',
      3 * MB,
      64 * 1024,
      64 * MB,
    ),
    rateLimit: perSecond === 0 ? null : Object.freeze({ perSecond, burst }),
    sandboxJoins: Object.freeze({
      perPhone: integer(env, 'SANDBOX_JOIN_ATTEMPTS_PER_PHONE', 5, 1, 1000),
      perMinute: integer(env, 'SANDBOX_JOIN_ATTEMPTS_PER_MINUTE', 60, 1, 1_000_000),
    }),
  };
}

/** The SMTP server one-time links are mailed through; none unless SMTP_URL is set. */
export function mailSection(env: Env, publicUrl: string): Config['mail'] {
  const raw = env.SMTP_URL?.trim();
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The value is not repeated: it may hold a password.
    throw new ConfigError('SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:')
    throw new ConfigError('SMTP_URL must start with smtp:// (STARTTLS when offered) or smtps:// (TLS)');
  const from = env.MAIL_FROM?.trim() || `Switchboard <no-reply@${new URL(publicUrl).hostname}>`;
  return Object.freeze({ smtpUrl: raw, from });
}
