/**
 * The simulator's credentials, per install: the Graph access token the simulated network accepts, the app
 * secret that signs its webhooks, and the token that opens its own routes when they are private. Fixed
 * strings would let anyone who knows this repository send as the sandbox number or forge network
 * webhooks (docs/adr/0014-private-simulator.md). They are derived from the install's secret key (HKDF,
 * one label each), so nothing more needs keeping: every start of one install, and every node sharing
 * SECRET_KEY, agrees on them. Values set in the environment win.
 */
import { hkdfSync } from 'node:crypto';
import type { Config, EnvConfig } from './config.ts';

export interface SimulatorSecrets {
  /** Bearer token of the simulated Graph API (SIMULATOR_ACCESS_TOKEN). */
  accessToken: string;
  /** Signs the simulator's webhooks and verifies them at /webhooks/network (NETWORK_APP_SECRET). */
  appSecret: string;
  /** Opens the phone page, the users API and the faults (SIMULATOR_TOKEN). */
  token: string;
}

function derive(secretKey: Buffer, label: string): string {
  const bytes = hkdfSync('sha256', secretKey, Buffer.alloc(0), `switchboard simulator ${label}`, 32);
  return Buffer.from(bytes).toString('base64url');
}

export function deriveSimulatorSecrets(secretKey: Buffer): SimulatorSecrets {
  return {
    accessToken: derive(secretKey, 'access token'),
    appSecret: derive(secretKey, 'app secret'),
    token: derive(secretKey, 'token'),
  };
}

/** The configuration with every simulator credential the environment left unset derived from the key. */
export function withInstallSecrets(config: Readonly<EnvConfig>, secretKey: Buffer): Readonly<Config> {
  const derived = deriveSimulatorSecrets(secretKey);
  const accessToken = config.simulator.accessToken ?? derived.accessToken;
  return Object.freeze({
    ...config,
    graph: Object.freeze({ ...config.graph, appSecret: config.graph.appSecret ?? derived.appSecret }),
    // In simulator mode the sandbox number's token is the simulator's (cloud mode always sets it).
    sandbox: Object.freeze({ ...config.sandbox, accessToken: config.sandbox.accessToken ?? accessToken }),
    simulator: Object.freeze({
      ...config.simulator,
      accessToken,
      token: config.simulator.token ?? derived.token,
    }),
  });
}
