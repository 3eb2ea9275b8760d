/** The in-process simulated WhatsApp network, when NETWORK=simulator (docs/simulator.md). */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.ts';
import { createSimulator, type Simulator } from '../simulator/index.ts';
import type { Store } from '../store/connect.ts';
import { simulatorStateRepo } from '../store/simulator-state-repo.ts';
import { selfUrl } from './self-url.ts';

function simulatorFor(app: FastifyInstance, config: Readonly<Config>, store: Store): Simulator {
  return createSimulator({
    // The simulated network keeps its state in the gateway's database, so a restart changes nothing
    // (docs/adr/0021). Only when it is this gateway's network: a node whose GRAPH_BASE_URL names another
    // node's simulator leaves the records to that one, which would otherwise see them change under it.
    ...(config.graph.baseUrl === null && config.simulator.keepState
      ? { state: simulatorStateRepo(store.db) }
      : {}),
    accessToken: config.simulator.accessToken,
    appSecret: config.graph.appSecret,
    webhookUrl: () => config.simulator.webhookUrl ?? `${selfUrl(app, config.port)}/webhooks/network`,
    statusDelayMs: config.simulator.statusDelayMs,
    templateReviewDelayMs: config.simulator.templateReviewDelayMs,
    postStatuses: config.simulator.postStatuses,
    maxSendsPerSecond: config.simulator.maxSendsPerSecond,
    pairBurst: config.simulator.pairBurst,
    ...(config.simulator.maxOwedWebhooks ? { maxOwedWebhooks: config.simulator.maxOwedWebhooks } : {}),
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
  });
}

/** Builds the simulator and serves it under /simulator; null when the gateway talks to the real network. */
export async function installSimulator(
  app: FastifyInstance,
  config: Readonly<Config>,
  store: Store,
): Promise<Simulator | null> {
  if (config.network !== 'simulator') return null;
  const simulator = simulatorFor(app, config, store);
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
  return simulator;
}
