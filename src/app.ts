/**
 * The composition root: the one place that picks the store dialect and the network, builds the
 * repositories and wires routes. It never listens; src/main.ts does (so tests build apps freely).
 */
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config/config.ts';
import type { FlowDeps } from './domain/flows/flow-service.ts';
import { resolveFlowSend } from './domain/flows/resolve-flow-send.ts';
import type { InboundDeps } from './domain/inbound.ts';
import { mediaLink } from './domain/media-links.ts';
import type { FlowContent } from './domain/messages/send-flow.ts';
import type { TemplateContent } from './domain/messages/send-template.ts';
import { memoryRateLimiter } from './domain/rate-limit.ts';
import { decryptSecret } from './domain/secrets.ts';
import type { SendDeps } from './domain/send-message.ts';
import type { TemplateDeps } from './domain/templates/manage-templates.ts';
import { resolveTemplateSend } from './domain/templates/resolve-template-send.ts';
import { recordTemplateReview } from './domain/templates/review-templates.ts';
import { createDispatcher, type WebhookDispatcher } from './events/dispatcher.ts';
import { inboundPayload, statusPayload } from './events/payloads.ts';
import { guardedAgent } from './events/url-guard.ts';
import { ajvOptions } from './http/ajv.ts';
import { installOpenApi, registerDocsRoutes } from './http/api-docs.ts';
import { installApiKeyAuth } from './http/auth.ts';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandler } from './http/error-handler.ts';
import { installMetrics } from './http/metrics.ts';
import { installRateLimit } from './http/rate-limit.ts';
import { requestIdOf } from './http/request-id.ts';
import { registerFlowPreviewPage } from './http/routes/flow-preview-page.ts';
import { registerFlowRoutes } from './http/routes/flows.ts';
import { registerGetMessageRoute } from './http/routes/get-message.ts';
import { registerMediaRoute } from './http/routes/media.ts';
import { registerNetworkWebhook } from './http/routes/network-webhook.ts';
import { registerOpsRoutes } from './http/routes/ops.ts';
import { registerSendRoutes } from './http/routes/send-messages.ts';
import { registerTemplateRoutes } from './http/routes/templates.ts';
import { registerWebhookRoutes } from './http/routes/webhooks.ts';
import { createCloudConnector } from './network/cloud-connector.ts';
import type { NetworkConnector } from './network/port.ts';
import { DEFAULT_RETRY_POLICY } from './network/retry-policy.ts';
import { createSimulator, type Simulator } from './network/simulator/index.ts';
import { portalPlugin } from './portal/routes.ts';
import { openStore, type Store } from './store/connect.ts';
import { inboundRepo } from './store/inbound-repo.ts';
import { mediaRepo } from './store/media-repo.ts';
import { messageLogRepo } from './store/message-log-repo.ts';
import { migrateToLatest } from './store/migrate.ts';
import { portalRepo } from './store/portal-repo.ts';
import { postgresRateLimiter } from './store/rate-limits-repo.ts';
import { createRepositories, type Repositories } from './store/repositories.ts';
import { loadOrCreateSecretKey } from './store/secret-key.ts';
import { templatesRepo } from './store/templates-repo.ts';
import { insertEvent } from './store/webhooks-repo.ts';

/** The network's largest media (documents, reference §1.6); bigger files are not copied. */
const MEDIA_MAX_BYTES = 100 * 1024 * 1024;

export interface Gateway {
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
}

/** The address this process listens on, for links back to itself (known only after listen). */
function selfUrl(app: FastifyInstance, fallbackPort: number): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : fallbackPort;
  return `http://127.0.0.1:${port}`;
}

export async function buildGateway(config: Readonly<Config>, options: BuildOptions = {}): Promise<Gateway> {
  const store = openStore(config.databaseUrl);
  await migrateToLatest(store);
  // Status changes and their `message.status` events commit together (the outbox).
  const repos = createRepositories(store, {
    onStatusChange: async (trx, message, status, at, error) => {
      const data = () => statusPayload(message, status, at, error);
      if (await insertEvent(trx, message.account_id, 'message.status', data, at)) dispatcher.wake();
    },
    // insertEvent keeps nothing for an account without endpoints.
    statusChangeNeedsEndpoints: true,
  });
  const secretKey = loadOrCreateSecretKey(config.secretKey, config.dataDir);

  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Keys and tokens never reach the log, whatever a future serializer decides to include.
      redact: ['req.headers.apikey', 'req.headers.authorization', 'apiKey', 'accessToken', '*.accessToken'],
    },
    bodyLimit: config.bodyLimitBytes,
    // The client's x-request-id is taken only when it is a plain token (src/http/request-id.ts).
    genReqId: requestIdOf,
    ajv: { customOptions: ajvOptions },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    return503OnClosing: true,
  });
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
    });

  const sandbox = { phone: config.sandboxNumber, ...config.sandbox };
  const sendDeps: SendDeps = {
    ...repos,
    sandbox,
    secretKey,
    connector,
    windowOpenSince: (business, user) => repos.conversations.lastInboundAt(business, user),
    resolveTemplate: (accountId, senderPhone, content) =>
      resolveTemplateSend(templateDeps.templates, accountId, senderPhone, content as TemplateContent),
    resolveFlow: (accountId, content) => resolveFlowSend(repos.flows, accountId, content as FlowContent),
    // Twice the longest a send can take (pacing wait, retries, then the network timeout), and at least a
    // minute: a claim older than that was left by a node that stopped mid-send.
    abandonedClaimMs: Math.max(
      60_000,
      2 * (config.graph.maxPacingWaitMs + config.graph.retryBudgetMs + config.graph.timeoutMs),
    ),
  };
  const media = mediaRepo(store.db, config.dataDir);
  const flowDeps: FlowDeps = {
    ...repos,
    sandbox,
    secretKey,
    connector,
    simulated: config.network === 'simulator',
    publicUrl: config.publicUrl,
  };
  const templateDeps: TemplateDeps = {
    ...repos,
    templates: templatesRepo(store.db, config.dataDir),
    sandbox,
    secretKey,
    connector,
    simulated: config.network === 'simulator',
    wakeDispatcher: () => dispatcher.wake(),
  };
  const inboundDeps: InboundDeps = {
    ...repos,
    sandbox,
    connector,
    logger: app.log,
    copyMedia: async (accountId, event, mediaId) => {
      const number =
        event.phoneNumberId === sandbox.phoneNumberId
          ? undefined
          : await repos.numbers.findNumberByPhoneNumberId(event.phoneNumberId);
      const accessToken = number ? decryptSecret(number.access_token_enc, secretKey) : sandbox.accessToken;
      const result = await connector.fetchMedia(
        { phoneNumberId: event.phoneNumberId, accessToken },
        mediaId,
        MEDIA_MAX_BYTES,
      );
      if (!result.ok) {
        app.log.warn({ mediaId, failure: result.failure }, 'inbound media could not be copied');
        return { error: `${result.failure.title}: ${result.failure.details}` };
      }
      const file = await media.store(accountId, mediaId, result.media.mimeType, result.media.bytes);
      return { url: mediaLink(config.publicUrl, secretKey, file.id) };
    },
    publishReceived: async (row, accountId, media) => {
      await store.db.transaction().execute(async (trx) => {
        await inboundRepo(trx).assignAccount(row.wa_id, accountId);
        await insertEvent(
          trx,
          accountId,
          'message.received',
          () => inboundPayload(row, media),
          row.received_at,
        );
      });
      dispatcher.wake();
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
      installRateLimit(
        api,
        store.dialect === 'postgres'
          ? postgresRateLimiter(store.db, config.rateLimit)
          : memoryRateLimiter(config.rateLimit),
      );
    }
    // Template media and Flow JSON uploads. Each route passes its own size limits to request.file();
    // these defaults bound everything else (one file, a few small text parts).
    await api.register(multipart, {
      limits: { files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12, fileSize: 1024 * 1024 },
    });
    registerSendRoutes(api, sendDeps);
    registerGetMessageRoute(api, repos.messages);
    registerTemplateRoutes(api, templateDeps);
    registerFlowRoutes(api, flowDeps);
    registerWebhookRoutes(api, {
      repo: repos.webhooks,
      secretKey,
      allowPrivateUrls: config.webhooks.allowPrivateUrls,
      rotationOverlapMs: 24 * 3_600_000,
      wakeDispatcher: () => dispatcher.wake(),
    });
  });
  app.addHook('onReady', async () => {
    if (store.dialect === 'sqlite') await repos.webhooks.releaseAllClaims();
    dispatcher.start();
  });
  await registerNetworkWebhook(
    app,
    {
      appSecret: config.graph.appSecret,
      verifyToken: config.graph.verifyToken,
      onTemplateStatus: (event) => recordTemplateReview(templateDeps, event),
    },
    inboundDeps,
  );
  registerMediaRoute(app, media, secretKey);
  registerFlowPreviewPage(app, repos.flows, secretKey);
  registerOpsRoutes(app, store, registry);
  registerDocsRoutes(app);
  // The customer portal (server-rendered HTML, cookies and forms in its own scope only).
  await app.register(portalPlugin, {
    prefix: '/app',
    config,
    repos,
    portal: portalRepo(store.db),
    messageLog: messageLogRepo(store.db),
    templates: templateDeps,
    flows: { ...flowDeps, secretKey },
    webhooks: {
      secretKey,
      allowPrivateUrls: config.webhooks.allowPrivateUrls,
      wakeDispatcher: () => dispatcher.wake(),
    },
  });

  return {
    app,
    store,
    repos,
    secretKey,
    simulator,
    dispatcher,
    async close() {
      await app.close();
      await dispatcher.stop();
      await simulator?.close();
      await store.close();
    },
  };
}
