/** Every route: the API under /api/v1, the network's webhook, media links, operations, docs, the portal. */

import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Registry } from 'prom-client';
import { onAccountRestriction, onNumberQuality } from '../domain/campaigns/network-signals.ts';
import {
  recordTemplateCategory,
  recordTemplateQuality,
  recordTemplateReview,
} from '../domain/templates/review-templates.ts';
import { installApiKeyAuth } from '../http/auth.ts';
import { installJsonStorableText } from '../http/json-storable-text.ts';
import { installQueryOnce } from '../http/query-once.ts';
import { installRateLimit } from '../http/rate-limit.ts';
import { registerCampaignRoutes } from '../http/routes/campaigns/index.ts';
import { registerContactRoutes } from '../http/routes/contacts/index.ts';
import { registerDocsRoutes } from '../http/routes/docs/index.ts';
import { registerFlowPreviewRoutes } from '../http/routes/flow-preview/index.ts';
import { registerFlowRoutes } from '../http/routes/flows/index.ts';
import { registerHome } from '../http/routes/home/index.ts';
import { registerMediaRoutes } from '../http/routes/media/index.ts';
import { registerMessageRoutes } from '../http/routes/messages/index.ts';
import { registerNetworkWebhook } from '../http/routes/network-webhook/index.ts';
import { registerOpsRoutes } from '../http/routes/ops/index.ts';
import { registerOptOutRoutes } from '../http/routes/opt-outs/index.ts';
import { registerTemplateRoutes } from '../http/routes/templates/index.ts';
import { registerUploadRoutes } from '../http/routes/uploads/index.ts';
import { registerWebhookRoutes } from '../http/routes/webhooks/index.ts';
import { typed } from '../http/typed-app.ts';
import { webhookEventsOrRefusal } from '../network/webhook-events.ts';
import type { PasswordHashing } from '../portal/auth/passwords.ts';
import { portalPlugin } from '../portal/routes.ts';
import { messageLogRepo } from '../store/message-log-repo.ts';
import { portalRepo } from '../store/portal-repo.ts';
import type { Core } from './core.ts';
import type { Services } from './services/index.ts';

/** The API for API keys: /api/v1 routes behind key authentication and the per-key rate limit. */
export async function registerApi(app: FastifyInstance, core: Core, services: Services): Promise<void> {
  const { config, repos } = core;
  await app.register(async (api) => {
    installApiKeyAuth(api, repos.accounts);
    installJsonStorableText(api);
    installQueryOnce(api);
    // The API reads JSON (and multipart uploads): a text/plain body, which Fastify would otherwise read as
    // a string, is a 415 like any other type, not a 400 saying the body is not an object.
    api.removeContentTypeParser('text/plain');
    // Per API key; counted in PostgreSQL when nodes share it, in memory for the one SQLite process.
    if (config.rateLimit) {
      installRateLimit(api, services.limiter(config.rateLimit));
    }
    // Template media, media to send and Flow JSON uploads. Each route passes its own size limits to request.file();
    // these defaults bound everything else (one file, a few small text parts).
    await api.register(multipart, {
      limits: { files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12, fileSize: 1024 * 1024 },
    });
    registerMessageRoutes(typed(api), services.send, repos.messages, services.receipts);
    registerTemplateRoutes(typed(api), services.templates);
    registerUploadRoutes(typed(api), services.uploads);
    registerFlowRoutes(typed(api), services.flows);
    registerWebhookRoutes(typed(api), services.webhookEndpoints);
    registerContactRoutes(typed(api), services.contacts);
    registerOptOutRoutes(typed(api), { optOuts: repos.optOuts });
    registerCampaignRoutes(typed(api), services.campaigns);
  });
}

/** The routes outside the API: the network's webhook, media and preview links, operations, docs. */
export async function registerPublicRoutes(
  app: FastifyInstance,
  core: Core,
  services: Services,
  registry: Registry,
): Promise<void> {
  const { config, secretKey } = core;
  // Template news that changes nothing (a template made elsewhere, a repeat) is said in the log.
  const templateNews = { ...services.templates, logger: core.logger };
  await registerNetworkWebhook(
    app,
    {
      appSecret: config.graph.appSecret,
      verifyToken: config.graph.verifyToken,
      bodyLimitBytes: config.networkWebhookBodyLimitBytes,
      readEvents: webhookEventsOrRefusal,
      onTemplateStatus: (event) => recordTemplateReview(services.templates, event),
      onTemplateCategory: (event) => recordTemplateCategory(templateNews, event),
      onTemplateQuality: (event) => recordTemplateQuality(templateNews, event),
      onNumberQuality: (event) => onNumberQuality(services.campaigns, core.repos.numbers, event),
      onAccountRestriction: (event) =>
        onAccountRestriction(services.campaigns, core.repos.numbers, sandboxAccount(config), event),
    },
    services.inbound,
  );
  registerMediaRoutes(typed(app), services.media, secretKey);
  registerFlowPreviewRoutes(typed(app), core.repos.flows, secretKey);
  registerOpsRoutes(typed(app), databaseProbe(core.store), registry);
  await registerDocsRoutes(typed(app));
  registerHome(typed(app));
}

/** The database as /readyz checks it: one round trip. */
/** The sandbox number and its WABA (on the simulated network, its phone-number id: business-accounts.ts). */
function sandboxAccount(config: Core['config']): { phone: string; wabaId: string | null } {
  const simulated = config.network === 'simulator' ? config.sandbox.phoneNumberId : null;
  return { phone: config.sandboxNumber, wabaId: config.sandbox.wabaId || simulated };
}

function databaseProbe(store: Core['store']) {
  return {
    dialect: store.dialect,
    ping: async () => {
      await sql`select 1`.execute(store.db);
    },
  };
}

/** The customer portal (server-rendered HTML, cookies and forms in its own scope only). */
export async function registerPortal(
  app: FastifyInstance,
  core: Core,
  services: Services,
  passwords: PasswordHashing,
): Promise<void> {
  const { config, secretKey, store } = core;
  await app.register(portalPlugin, {
    prefix: '/app',
    config,
    repos: core.repos,
    portal: portalRepo(store.db),
    messageLog: messageLogRepo(store.db),
    dashboard: core.repos.dashboard,
    media: { repo: services.media, secretKey },
    templates: services.templates,
    flows: { ...services.flows, secretKey },
    webhooks: services.webhookEndpoints,
    contacts: services.contacts,
    campaigns: services.campaigns,
    inbox: services.inbox,
    uploads: services.uploads,
    mailer: services.mailer,
    passwords,
  });
}
