/**
 * The network simulator: a local, in-memory emulation of Meta's WhatsApp Cloud API (Graph wire format:
 * same paths, bodies, errors, webhook envelopes and signatures) with virtual end-user phones
 * (docs/contract.md §1, docs/adr/0003). The app mounts it under `/simulator`, so the Graph base URL is
 * `http://host:port/simulator`, and the gateway's production Cloud API connector talks to it over HTTP.
 *
 * Conventions of the simulated network (README.md beside this file):
 * - A business number's Graph phone-number id is its own E.164 digits (+1 415 555 0100 → `14155550100`):
 *   no registry, and every process agrees. An id that is not a valid number is an unknown Graph object
 *   (code 100, subcode 33).
 * - Every valid number is a WhatsApp user; `POST /users/:phone/messages` is that user's phone.
 * - One access token (options.accessToken) is accepted for every number. Each number is its own WhatsApp
 *   Business Account, whose id is the phone-number id; message templates belong to it (templates/).
 * - The simulator's own routes (phone, users, faults) need options.gate's token when it is private
 *   (access-gate.ts); the Graph routes need the access token, as Meta's do.
 * - Free-form sends need the 24-hour window, opened by the user writing first (docs/cloud-api.md §7).
 * - State is worked on in memory and kept in options.state when given (the gateway's database): a
 *   restart, even a kill -9, changes nothing a client was told (state/). Without it, a restart is a
 *   fresh network.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { installAccessGate, type SimulatorGate } from './access-gate.ts';
import { AccountRestrictions } from './account-restrictions.ts';
import { BlockedUsers, registerBlockRoutes } from './blocked-users.ts';
import { Calls } from './calls.ts';
import { FlowCatalog } from './flow-catalog.ts';
import { sendGraphError, unknownPathError } from './graph-errors.ts';
import { GraphObjects } from './graph-objects.ts';
import { MarketingStops, registerMarketingRoutes } from './marketing-stops.ts';
import { mediaLinks } from './media-links.ts';
import { registerMediaUpload } from './media-upload.ts';
import { MediaVault } from './media-vault.ts';
import { MessagingLimits } from './messaging-limits.ts';
import { registerPhoneEvents } from './phone/events.ts';
import { registerPhoneRoutes } from './phone/routes.ts';
import { PhoneBook } from './phone-book.ts';
import { QrCodes, registerQrRoutes } from './qr-codes.ts';
import { AccountSettings, registerAccountRoutes } from './routes-account.ts';
import { registerCallRoutes } from './routes-calls.ts';
import { registerFaultRoutes } from './routes-faults.ts';
import { registerFlowRoutes } from './routes-flows.ts';
import { registerGraphRoutes } from './routes-graph.ts';
import { registerMediaRoutes } from './routes-media.ts';
import { registerNumberRoutes } from './routes-numbers.ts';
import { registerUserRoutes } from './routes-users.ts';
import { Scheduler } from './scheduler.ts';
import { StateJournal } from './state/journal.ts';
import { restoreState } from './state/restore.ts';
import type { SimulatorStateStore } from './state/store-port.ts';
import { StatusTimeline } from './status-timeline.ts';
import { TemplateCatalog } from './templates/catalog.ts';
import { TemplateReview } from './templates/review.ts';
import { registerTemplateRoutes } from './templates/routes.ts';
import { catalogTemplates } from './templates/send-check.ts';
import { Traffic } from './traffic.ts';
import { UserIds } from './user-ids.ts';
import { WebhookPoster } from './webhook-poster.ts';
import { WindowTracker } from './window-tracker.ts';

export interface SimulatorOptions {
  /** The only Bearer token the simulated Graph API accepts. */
  accessToken: string;
  /** Signs every webhook POST: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the exact body bytes>`. */
  appSecret: string;
  /** Where webhooks are POSTed (the gateway's /webhooks/network); a function because the port is known only after listen. */
  webhookUrl: string | (() => string);
  /** Delay between the sent → delivered → read status webhooks. */
  statusDelayMs: number;
  /** Virtual users read what they receive (default true). */
  autoRead?: boolean;
  /** Post status webhooks (default true); false measures a gateway's send path without them. */
  postStatuses?: boolean;
  /** A free-form send outside the 24-hour window: 'async' (default) = 200 then a `failed` status with 131047; 'sync' = HTTP 400 error 131047. */
  windowErrorMode?: 'async' | 'sync';
  logger?: { warn(obj: object, msg: string): void };
  /** Clock in epoch ms, for tests that move time past the 24-hour window (default Date.now). */
  now?: () => number;
  /** How long the simulated review of a created or edited template takes (default 1000 ms). */
  templateReviewDelayMs?: number;
  /** The business number the phone page (`/phone`) offers first, E.164 digits (the gateway's sandbox number). */
  phoneDefaultBusiness: string;
  /** Meta's throughput per business number, sends per second (default 80; 0 = no limit); beyond it 130429. */
  maxSendsPerSecond?: number;
  /** Messages one number may send one user at once before error 131056 (default 45; 0 = no pair limit). */
  pairBurst?: number;
  /** How fast the pair allowance refills: one message per this many ms (default 6000, docs/cloud-api.md §7). */
  pairIntervalMs?: number;
  /** Makes the simulator's own routes (phone, users, faults) need a token (access-gate.ts); default open. */
  gate?: SimulatorGate;
  /**
   * Where the network's state is kept (state/store-port.ts): restored when the plugin registers, and
   * every change written before the request that made it is answered. Default: memory only.
   */
  state?: SimulatorStateStore;
  /**
   * Waits between a webhook's attempts while its receiver does not take it (default 250 ms, 1 s, 4 s, 15 s,
   * 30 s, as webhook-poster.ts says). Tests that kill their gateway shorten them.
   */
  webhookRetryDelaysMs?: readonly number[];
  /** Webhooks owed at most before sends wait for them (webhook-poster.ts, MAX_OWED); tests lower it. */
  maxOwedWebhooks?: number;
  /**
   * How long one webhook post waits for its answer (default 5 s, webhook-poster.ts). A test that shows a
   * close cutting a hung post lengthens it, so that only the close can end the post.
   */
  webhookTimeoutMs?: number;
}

export interface Simulator {
  /** Register with `{ prefix: '/simulator' }`. */
  plugin: FastifyPluginAsync;
  /** Resolves once every webhook queued so far was delivered or given up. */
  idle(): Promise<void>;
  /** Stops timers, abandons pending webhook posts and ends the phones' live streams. */
  close(): Promise<void>;
}

/** What businesses keep on the network: media, flows, templates and their review. */
function buildCatalogs(
  options: SimulatorOptions,
  journal: StateJournal,
  scheduler: Scheduler,
  poster: WebhookPoster,
  now: () => number,
) {
  const templates = new TemplateCatalog(journal);
  const review = new TemplateReview({
    catalog: templates,
    scheduler,
    poster,
    reviewDelayMs: options.templateReviewDelayMs ?? 1000,
    now,
  });
  return {
    objects: new GraphObjects(),
    vault: new MediaVault(journal),
    flows: new FlowCatalog(journal),
    templates,
    review,
  };
}

/**
 * What the network keeps about users and numbers beside messages: ids, profiles, QR codes, blocks, the
 * users who stopped a number's marketing, and each number's messaging limit and the users it reached.
 */
function buildAccounts(journal: StateJournal) {
  return {
    userIds: new UserIds(journal),
    settings: new AccountSettings(journal),
    qrCodes: new QrCodes(journal),
    blocked: new BlockedUsers(journal),
    marketingStops: new MarketingStops(journal),
    messagingLimits: new MessagingLimits(journal),
    restrictions: new AccountRestrictions(journal),
  };
}

/** What carries the network's news to the business: the webhook poster and each message's status steps. */
function buildDelivery(
  options: SimulatorOptions,
  journal: StateJournal,
  scheduler: Scheduler,
  phones: PhoneBook,
  now: () => number,
) {
  const { webhookUrl } = options;
  const poster = new WebhookPoster({
    url: typeof webhookUrl === 'function' ? webhookUrl : () => webhookUrl,
    appSecret: options.appSecret,
    scheduler,
    journal,
    markAccepted: ({ user, id }) => phones.setSentStatus(user, id, 'delivered'),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {}),
    ...(options.maxOwedWebhooks ? { maxOwed: options.maxOwedWebhooks } : {}),
    ...(options.webhookTimeoutMs ? { timeoutMs: options.webhookTimeoutMs } : {}),
  });
  const timeline = new StatusTimeline({
    statusDelayMs: options.statusDelayMs,
    autoRead: options.autoRead ?? true,
    postStatuses: options.postStatuses ?? true,
    scheduler,
    poster,
    phones,
    journal,
    now,
  });
  return { poster, timeline };
}

/** The simulated network's state and machinery, wired together. */
function buildParts(options: SimulatorOptions) {
  const now = options.now ?? Date.now;
  const journal = new StateJournal(options.state ?? null, options.logger);
  const scheduler = new Scheduler();
  const phones = new PhoneBook(journal);
  const windows = new WindowTracker(journal);
  const accounts = buildAccounts(journal);
  const { poster, timeline } = buildDelivery(options, journal, scheduler, phones, now);
  const { objects, vault, flows, templates, review } = buildCatalogs(
    options,
    journal,
    scheduler,
    poster,
    now,
  );
  const traffic = new Traffic({
    maxSendsPerSecond: options.maxSendsPerSecond ?? 80,
    pairBurst: options.pairBurst ?? 45,
    pairIntervalMs: options.pairIntervalMs ?? 6000,
    scheduler,
    journal,
  });
  return {
    now,
    journal,
    scheduler,
    phones,
    windows,
    ...accounts,
    calls: new Calls({
      journal,
      poster,
      scheduler,
      userIds: accounts.userIds,
      ringMs: options.statusDelayMs,
      now,
    }),
    poster,
    timeline,
    objects,
    vault,
    links: mediaLinks(now),
    flows,
    templates,
    review,
    traffic,
  };
}

type Parts = ReturnType<typeof buildParts>;

/** Restores the state when it is kept, and holds every answer until what its request changed is written. */
async function installState(app: FastifyInstance, options: SimulatorOptions, parts: Parts): Promise<void> {
  // Kept in memory only: nothing to restore, nothing to wait for before answering.
  if (!options.state) return;
  const resume = await restoreState(options.state, parts, options.logger);
  app.addHook('onListen', async () => resume());
  // No answer before what its request changed is written: what a client was told survives a kill -9.
  app.addHook('onSend', async (_request, _reply, payload) => {
    await parts.journal.settled();
    return payload;
  });
}

/** The Graph API the simulator emulates (docs/cloud-api.md). */
function registerGraphApi(app: FastifyInstance, options: SimulatorOptions, parts: Parts): void {
  const {
    now,
    phones,
    windows,
    userIds,
    settings,
    poster,
    timeline,
    objects,
    vault,
    links,
    flows,
    templates,
    review,
    traffic,
  } = parts;
  const accessToken = options.accessToken;
  registerMediaRoutes(app, { accessToken, vault, objects, links });
  registerMediaUpload(app, { accessToken, vault });
  registerFlowRoutes(app, { accessToken, flows, objects });
  registerAccountRoutes(app, { accessToken, settings });
  registerQrRoutes(app, { accessToken, codes: parts.qrCodes });
  registerBlockRoutes(app, { accessToken, blocked: parts.blocked, userIds });
  registerCallRoutes(app, { accessToken, calls: parts.calls, userIds, windows, now });
  registerTemplateRoutes(app, { accessToken, catalog: templates, review, objects, poster, now });
  registerGraphRoutes(app, {
    accessToken,
    windowErrorMode: options.windowErrorMode ?? 'async',
    phones,
    windows,
    timeline,
    templates: catalogTemplates(templates),
    objects,
    media: vault,
    flows,
    traffic,
    userIds,
    marketingStops: parts.marketingStops,
    messagingLimits: parts.messagingLimits,
    restrictions: parts.restrictions,
    webhookRoom: () => poster.room(),
    now,
  });
}

/** The simulator's own routes: faults, business numbers' limits, the virtual users and their phone page. */
function registerOwnRoutes(
  app: FastifyInstance,
  options: SimulatorOptions,
  parts: Parts,
  streams: { close(): void }[],
): void {
  const { now, phones, windows, userIds, blocked, poster, vault, links, flows, traffic } = parts;
  registerFaultRoutes(app, traffic);
  registerNumberRoutes(app, {
    messagingLimits: parts.messagingLimits,
    restrictions: parts.restrictions,
    poster,
    now,
  });
  // Sends held by a timeout fault would keep a closing server waiting.
  app.addHook('preClose', async () => traffic.close());
  registerUserRoutes(app, {
    phones,
    windows,
    poster,
    vault,
    links,
    prefix: app.prefix,
    userIds,
    blocked,
    flows,
    now,
  });
  registerMarketingRoutes(app, { marketingStops: parts.marketingStops, poster, userIds, now });
  registerPhoneRoutes(app, { phones, vault, flows, defaultBusiness: options.phoneDefaultBusiness });
  const phoneStreams = registerPhoneEvents(app, phones);
  streams.push(phoneStreams);
  app.addHook('preClose', async () => phoneStreams.close());
}

/** The simulator's routes: the Graph API it emulates, and its own (users, phones, faults). */
function routesOf(options: SimulatorOptions, parts: Parts, streams: { close(): void }[]): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    await installState(app, options, parts);
    // A path the simulated Graph does not have is Graph's error, as on Meta, never the gateway's 404.
    app.setNotFoundHandler((request, reply) =>
      sendGraphError(reply, unknownPathError(request.url.split('?')[0]?.slice(app.prefix.length) ?? '')),
    );
    if (options.gate) installAccessGate(app, options.gate);
    registerGraphApi(app, options, parts);
    registerOwnRoutes(app, options, parts, streams);
  };
}

export function createSimulator(options: SimulatorOptions): Simulator {
  const parts = buildParts(options);
  const { scheduler, poster, traffic, journal } = parts;
  // The live streams of the phone page; open streams would keep a closing server waiting.
  const streams: { close(): void }[] = [];
  const plugin = routesOf(options, parts, streams);
  return {
    plugin,
    idle: () => poster.idle(),
    async close() {
      for (const s of streams) s.close();
      traffic.close();
      scheduler.close();
      await poster.close();
      await journal.close();
    },
  };
}

/** The plugin alone, for callers that never close it (its timers then end with the process). */
export function simulatorPlugin(options: SimulatorOptions): FastifyPluginAsync {
  return createSimulator(options).plugin;
}
