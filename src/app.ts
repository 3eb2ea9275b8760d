/**
 * The composition root: the one place that picks the store dialect and the network, builds the
 * repositories and wires routes. It never listens; src/main.ts does (so tests build apps freely).
 */
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config, EnvConfig } from './config/config.ts';
import { withInstallSecrets } from './config/simulator-secrets.ts';
import type { FlowDeps } from './domain/flows/flow-service.ts';
import { resolveFlowSend } from './domain/flows/resolve-flow-send.ts';
import type { InboundDeps } from './domain/inbound.ts';
import { joinLimitPolicies, joinLimits } from './domain/join-limits.ts';
import type { FlowContent } from './domain/messages/send-flow.ts';
import type { TemplateContent } from './domain/messages/send-template.ts';
import { createSweeper, sweepInterval } from './domain/outcome-sweeper.ts';
import type { NetworkConnector } from './domain/ports/network.ts';
import { memoryRateLimiter, type RateLimitPolicy } from './domain/rate-limit.ts';
import type { SendDeps } from './domain/send-message.ts';
import type { TemplateDeps } from './domain/templates/manage-templates.ts';
import { resolveTemplateSend } from './domain/templates/resolve-template-send.ts';
import { recordTemplateReview } from './domain/templates/review-templates.ts';
import { SWEEP_BATCH, sweepUnsettled } from './domain/unknown-outcomes.ts';
import type { WebhookEndpointDeps } from './domain/webhook-endpoints.ts';
import { createDispatcher, type WebhookDispatcher } from './events/dispatcher.ts';
import { inboundPayload, statusPayload } from './events/payloads.ts';
import { ajvOptions } from './http/ajv.ts';
import { installOpenApi } from './http/api-docs.ts';
import { installApiKeyAuth } from './http/auth.ts';
import { closeGracefully } from './http/close-gracefully.ts';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandler } from './http/error-handler.ts';
import { redactingLoggerOptions } from './http/log-redaction.ts';
import { installMetrics } from './http/metrics.ts';
import { installRateLimit } from './http/rate-limit.ts';
import { requestIdOf } from './http/request-id.ts';
import { registerDocsRoutes } from './http/routes/docs/index.ts';
import { registerFlowPreviewRoutes } from './http/routes/flow-preview/index.ts';
import { registerFlowRoutes } from './http/routes/flows/index.ts';
import { registerMediaRoutes } from './http/routes/media/index.ts';
import { registerMessageRoutes } from './http/routes/messages/index.ts';
import { registerNetworkWebhook } from './http/routes/network-webhook/index.ts';
import { registerOpsRoutes } from './http/routes/ops/index.ts';
import { registerTemplateRoutes } from './http/routes/templates/index.ts';
import { registerWebhookRoutes } from './http/routes/webhooks/index.ts';
import { applyServerTimeouts, fastifyTimeouts } from './http/server-timeouts.ts';
import { typed } from './http/typed-app.ts';
import { flowPreviewLink } from './lib/flow-preview-links.ts';
import { mediaLink } from './lib/media-links.ts';
import { decryptSecret } from './lib/sealed-secrets.ts';
import { guardedAgent } from './lib/url-guard.ts';
import { createCloudConnector } from './network/cloud-connector.ts';
import { DEFAULT_RETRY_POLICY } from './network/retry-policy.ts';
import { portalPlugin } from './portal/routes.ts';
import { createSimulator, type Simulator } from './simulator/index.ts';
import { openStore, type Store } from './store/connect.ts';
import { inboundRepo } from './store/inbound-repo.ts';
import { mediaRepo } from './store/media-repo.ts';
import { messageLogRepo } from './store/message-log-repo.ts';
import { migrateToLatest } from './store/migrate.ts';
import { portalRepo } from './store/portal-repo.ts';
import { prepareDataDir } from './store/private-files.ts';
import { postgresRateLimiter } from './store/rate-limits-repo.ts';
import { createRepositories, type Repositories } from './store/repositories.ts';
import { loadOrCreateSecretKey } from './store/secret-key.ts';
import { templatesRepo } from './store/templates-repo.ts';
import { webhookEndpointsStore } from './store/webhook-endpoints-store.ts';
import { insertEvent } from './store/webhooks-repo.ts';

/** The network's largest media (documents, reference §1.6); bigger files are not copied. */
const MEDIA_MAX_BYTES = 100 * 1024 * 1024;

export interface Gateway {
  /** The configuration with every credential known (the simulator's derived from the secret key). */
  config: Readonly<Config>;
  app: FastifyInstance;
  store: Store;
  repos: Repositories;
  secretKey: Buffer;
  simulator: Simulator | null;
  dispatcher: WebhookDispatcher;
  close(): Promise<void>;
}

export interface BuildOptions {
  /** Replaces the Cloud API connector (only for tests of what cannot run here). */
  connector?: NetworkConnector;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: { write(line: string): void };
}

/**
 * The address this process listens on, for its calls to itself (the in-process simulator's Graph API and
 * webhooks; known only after listen): loopback when it listens on every interface, else the one address
 * HOST names (an IPv6 loopback, or a LAN address the operator chose, which 127.0.0.1 would not reach).
 */
function selfUrl(app: FastifyInstance, fallbackPort: number): string {
  const address = app.server.address();
  if (typeof address !== 'object' || !address) return `http://127.0.0.1:${fallbackPort}`;
  const ipv6 = address.family === 'IPv6';
  let host = address.address;
  if (host === '0.0.0.0' || host === '::') host = ipv6 ? '::1' : '127.0.0.1';
  return `http://${ipv6 ? `[${host}]` : host}:${address.port}`;
}

export async function buildGateway(
  envConfig: Readonly<EnvConfig>,
  options: BuildOptions = {},
): Promise<Gateway> {
  const sharedDataDirMode = prepareDataDir(envConfig.dataDir);
  const secretKey = loadOrCreateSecretKey(envConfig.secretKey, envConfig.dataDir);
  const config = withInstallSecrets(envConfig, secretKey);
  const store = openStore(config.databaseUrl);
  await migrateToLatest(store);
  // Status changes and their `message.status` events commit together (the outbox).
  const repos = createRepositories(store, {
    onStatusChange: async (trx, message, status, at, error) => {
      const data = () => statusPayload(message, status, at, error);
      if (await insertEvent(trx, message.accountId, 'message.status', data, at)) dispatcher.wake();
    },
    // insertEvent keeps nothing for an account without endpoints.
    statusChangeNeedsEndpoints: true,
  });

  const app = Fastify({
    // Keys, tokens and signed links never reach the log, at any level, whoever logs them.
    logger: redactingLoggerOptions(config.logLevel, options.logStream),
    bodyLimit: config.bodyLimitBytes,
    ...fastifyTimeouts(config.http),
    // The client's x-request-id is taken only when it is a plain token (src/http/request-id.ts).
    genReqId: requestIdOf,
    ajv: { customOptions: ajvOptions },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    return503OnClosing: true,
  });
  applyServerTimeouts(app.server, config.http);
  if (sharedDataDirMode) {
    app.log.warn(
      { dataDir: config.dataDir, mode: sharedDataDirMode },
      'DATA_DIR can be entered by other users of this machine; its files are owner-only, but `chmod 700` the folder unless it is shared on purpose',
    );
  }
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandler(app);
  const registry = installMetrics(app);
  await installOpenApi(app, config.publicUrl);

  const simulator =
    config.network === 'simulator'
      ? createSimulator({
          accessToken: config.simulator.accessToken,
          appSecret: config.graph.appSecret,
          webhookUrl: () => config.simulator.webhookUrl ?? `${selfUrl(app, config.port)}/webhooks/network`,
          statusDelayMs: config.simulator.statusDelayMs,
          templateReviewDelayMs: config.simulator.templateReviewDelayMs,
          postStatuses: config.simulator.postStatuses,
          maxSendsPerSecond: config.simulator.maxSendsPerSecond,
          pairBurst: config.simulator.pairBurst,
          phoneDefaultBusiness: config.sandboxNumber,
          logger: app.log,
          // Reachable beyond this machine: its phones, users and faults need the simulator token.
          ...(config.simulator.requireToken
            ? {
                gate: {
                  token: config.simulator.token,
                  secureCookie: config.publicUrl.startsWith('https:'),
                },
              }
            : {}),
        })
      : null;
  if (simulator) {
    await app.register(async (scope) => {
      // The simulated Graph API is Meta's interface, not this gateway's: kept out of the API document.
      // The virtual phones are documented, without the apiKey every /api/v1 route needs.
      scope.addHook('onRoute', (route) => {
        const isPhone = route.url.startsWith('/simulator/users/');
        route.schema = isPhone
          ? {
              ...route.schema,
              tags: ['simulator'],
              summary: 'A virtual user phone (simulator only)',
              security: [],
            }
          : { ...route.schema, hide: true };
      });
      await scope.register(simulator.plugin, { prefix: '/simulator' });
    });
  }

  const connector =
    options.connector ??
    createCloudConnector({
      baseUrl: config.graph.baseUrl ?? (() => `${selfUrl(app, config.port)}/simulator`),
      apiVersion: config.graph.apiVersion,
      timeoutMs: config.graph.timeoutMs,
      pacing: { maxSendsPerSecond: config.graph.maxSendsPerSecond, maxWaitMs: config.graph.maxPacingWaitMs },
      retry: {
        attempts: config.graph.retryAttempts,
        budgetMs: config.graph.retryBudgetMs,
        baseDelayMs: DEFAULT_RETRY_POLICY.baseDelayMs,
      },
      // Media download URLs pass the webhook URLs' address guard (src/network/cloud-media.ts).
      allowPrivateMediaUrls: config.webhooks.allowPrivateUrls,
    });

  const sandbox = { phone: config.sandboxNumber, ...config.sandbox };
  const webhookEndpointDeps: WebhookEndpointDeps = {
    endpoints: webhookEndpointsStore(repos.webhooks),
    secretKey,
    allowPrivateUrls: config.webhooks.allowPrivateUrls,
    rotationOverlapMs: 24 * 3_600_000,
    wakeDispatcher: () => dispatcher.wake(),
  };
  // Twice the longest a send can take (pacing wait, retries, then the network timeout), and at least a
  // minute: a claim older than that was left by a node that stopped mid-send.
  const abandonedClaimMs = Math.max(
    60_000,
    2 * (config.graph.maxPacingWaitMs + config.graph.retryBudgetMs + config.graph.timeoutMs),
  );
  const sendDeps: SendDeps = {
    ...repos,
    sandbox,
    secretKey,
    connector,
    windowOpenSince: (business, user) => repos.conversations.lastInboundAt(business, user),
    resolveTemplate: (accountId, senderPhone, content) =>
      resolveTemplateSend(templateDeps.templates, accountId, senderPhone, content as TemplateContent),
    resolveFlow: (accountId, content) => resolveFlowSend(repos.flows, accountId, content as FlowContent),
    abandonedClaimMs,
    unknownOutcomeMs: config.graph.unknownOutcomeMs,
  };
  // Unknown outcomes no network status settled in time become FAILED (docs/adr/0013), on every node.
  const sweeper = createSweeper({
    pass: () =>
      sweepUnsettled({
        messages: repos.messages,
        abandonedClaimMs,
        unknownOutcomeMs: config.graph.unknownOutcomeMs,
        now: Date.now,
      }),
    batch: SWEEP_BATCH,
    everyMs: sweepInterval(config.graph.unknownOutcomeMs),
    logger: app.log,
  });
  const media = mediaRepo(store.db, config.dataDir);
  const flowDeps: FlowDeps = {
    ...repos,
    sandbox,
    secretKey,
    connector,
    simulated: config.network === 'simulator',
    previewLink: (flowId) => flowPreviewLink(config.publicUrl, secretKey, flowId),
  };
  const templateDeps: TemplateDeps = {
    ...repos,
    templates: templatesRepo(store.db, config.dataDir),
    mediaQuotaBytes: config.mediaQuotaBytesPerAccount,
    sandbox,
    secretKey,
    connector,
    simulated: config.network === 'simulator',
    wakeDispatcher: () => dispatcher.wake(),
  };
  // Counted in PostgreSQL when nodes share it (any node may receive a join), in memory on SQLite.
  const limiter = (policy: RateLimitPolicy) =>
    store.dialect === 'postgres' ? postgresRateLimiter(store.db, policy) : memoryRateLimiter(policy);
  const joinPolicies = joinLimitPolicies(config.sandboxJoins);
  const inboundDeps: InboundDeps = {
    ...repos,
    sandbox,
    connector,
    logger: app.log,
    joinLimits: joinLimits({ phone: limiter(joinPolicies.phone), sandbox: limiter(joinPolicies.sandbox) }),
    copyMedia: async (accountId, event, mediaId) => {
      const number =
        event.phoneNumberId === sandbox.phoneNumberId
          ? undefined
          : await repos.numbers.findNumberByPhoneNumberId(event.phoneNumberId);
      const accessToken = number ? decryptSecret(number.sealedAccessToken, secretKey) : sandbox.accessToken;
      const place = media.newPlace();
      const result = await connector.fetchMedia(
        { phoneNumberId: event.phoneNumberId, accessToken },
        mediaId,
        MEDIA_MAX_BYTES,
        place.absolute,
      );
      if (!result.ok) {
        app.log.warn({ mediaId, failure: result.failure }, 'inbound media could not be copied');
        return { error: `${result.failure.title}: ${result.failure.details}` };
      }
      try {
        const file = await media.record(accountId, mediaId, place, result.media);
        return { url: mediaLink(config.publicUrl, secretKey, file.id) };
      } catch (error) {
        // The message itself must still be stored and published: only its file is missing.
        app.log.error({ mediaId, err: error }, 'inbound media could not be recorded');
        return { error: 'media not stored: the gateway could not record the file' };
      }
    },
    publishReceived: async (row, accountId, media) => {
      const written = await store.db.transaction().execute(async (trx) => {
        // Whichever delivery marks the message handled writes its one event; a concurrent or later
        // delivery of the same message finds it marked and writes nothing.
        if (!(await inboundRepo(trx).markHandled(row.waId, accountId, Date.now()))) return null;
        if (!accountId) return null;
        const data = () => inboundPayload(row, media);
        return insertEvent(trx, accountId, 'message.received', data, row.receivedAt);
      });
      if (written) dispatcher.wake();
    },
  };

  const dispatcher = createDispatcher({
    repo: repos.webhooks,
    secretKey,
    agent: guardedAgent(config.webhooks.allowPrivateUrls, config.webhooks.timeoutMs),
    retryScheduleMs: config.webhooks.retryScheduleMs,
    timeoutMs: config.webhooks.timeoutMs,
    disableAfterMs: config.webhooks.disableAfterMs,
    concurrency: config.webhooks.concurrency,
    logger: app.log,
  });

  await app.register(async (api) => {
    installApiKeyAuth(api, repos.accounts);
    // Per API key; counted in PostgreSQL when nodes share it, in memory for the one SQLite process.
    if (config.rateLimit) {
      installRateLimit(api, limiter(config.rateLimit));
    }
    // Template media and Flow JSON uploads. Each route passes its own size limits to request.file();
    // these defaults bound everything else (one file, a few small text parts).
    await api.register(multipart, {
      limits: { files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12, fileSize: 1024 * 1024 },
    });
    registerMessageRoutes(typed(api), sendDeps, repos.messages);
    registerTemplateRoutes(typed(api), templateDeps);
    registerFlowRoutes(typed(api), flowDeps);
    registerWebhookRoutes(typed(api), webhookEndpointDeps);
  });
  app.addHook('onReady', async () => {
    if (store.dialect === 'sqlite') await repos.webhooks.releaseAllClaims();
    dispatcher.start();
    sweeper.start();
  });
  await registerNetworkWebhook(
    app,
    {
      appSecret: config.graph.appSecret,
      verifyToken: config.graph.verifyToken,
      bodyLimitBytes: config.networkWebhookBodyLimitBytes,
      onTemplateStatus: (event) => recordTemplateReview(templateDeps, event),
    },
    inboundDeps,
  );
  registerMediaRoutes(typed(app), media, secretKey);
  registerFlowPreviewRoutes(typed(app), repos.flows, secretKey);
  registerOpsRoutes(typed(app), store, registry);
  registerDocsRoutes(typed(app));
  // The customer portal (server-rendered HTML, cookies and forms in its own scope only).
  await app.register(portalPlugin, {
    prefix: '/app',
    config,
    repos,
    portal: portalRepo(store.db),
    messageLog: messageLogRepo(store.db),
    media: { repo: media, secretKey },
    templates: templateDeps,
    flows: { ...flowDeps, secretKey },
    webhooks: webhookEndpointDeps,
  });

  return {
    config,
    app,
    store,
    repos,
    secretKey,
    simulator,
    dispatcher,
    async close() {
      await closeGracefully(app);
      await dispatcher.stop();
      await sweeper.stop();
      await simulator?.close();
      await store.close();
    },
  };
}
