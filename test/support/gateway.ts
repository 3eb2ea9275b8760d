/**
 * Starts a real gateway on a real port for end-to-end tests: its own temporary DATA_DIR and SQLite file
 * (or a fresh PostgreSQL schema), the simulator mounted, fast simulated statuses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { buildGateway, type Gateway } from '../../src/app/build-gateway.ts';
import { DEFAULT_SANDBOX_NUMBER, loadConfig } from '../../src/config/config.ts';
import { createAccount as createDomainAccount } from '../../src/domain/accounts.ts';
import { createApiKey } from '../../src/domain/api-keys.ts';
import { encryptSecret } from '../../src/lib/sealed-secrets.ts';
import { passwordHashing } from '../../src/portal/auth/passwords.ts';
import type { Database } from '../../src/store/schema.ts';
import { eventually } from './eventually.ts';
import { rememberAppSecret } from './network-envelopes.ts';
import { createPostgresSchema, type PostgresSchema } from './postgres.ts';

export interface TestGateway {
  url: string;
  gateway: Gateway;
  dataDir: string;
  close(): Promise<void>;
}

export interface StartOptions {
  database?: 'sqlite' | 'postgres';
  env?: Record<string, string>;
  /** Receives the log lines (set LOG_LEVEL in `env` too). */
  logStream?: { write(line: string): void };
}

export const TEST_SECRET_KEY = 'a'.repeat(64);

/**
 * The suites' own gateways hash portal passwords at scrypt's N = 2^10 instead of 2^15: the same code, a
 * 32nd of the work (a run signs up and in about a hundred times, ten seconds of CPU and more at full cost).
 * Gateway processes hash at full cost, and test/unit/passwords.test.ts holds every gateway to it.
 */
const TEST_PASSWORD_HASHING = passwordHashing({ N: 1024, r: 8, p: 1 });

export async function startGateway(options: StartOptions = {}): Promise<TestGateway> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-test-'));
  let schema: PostgresSchema | undefined;
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SIMULATOR_STATUS_DELAY_MS: '20',
    SEED_DEMO_ACCOUNT: 'false',
    ...options.env,
  };
  if (options.database === 'postgres') {
    schema = await createPostgresSchema();
    env.DATABASE_URL = schema.url;
    env.SECRET_KEY ??= TEST_SECRET_KEY;
  }
  const gateway = await buildGateway(loadConfig(env), {
    ...(options.logStream ? { logStream: options.logStream } : {}),
    passwordHashing: TEST_PASSWORD_HASHING,
  });
  const url = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  rememberAppSecret(url, gateway.config.graph.appSecret);
  return {
    url,
    gateway,
    dataDir,
    async close() {
      await gateway.close();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface PostgresNodes {
  nodes: TestGateway[];
  close(): Promise<void>;
}

/** Gateway nodes sharing one fresh PostgreSQL schema and secret key, as nodes of one cluster do. */
export async function startPostgresNodes(count: number): Promise<PostgresNodes> {
  const schema = await createPostgresSchema();
  const env = { DATABASE_URL: schema.url, SECRET_KEY: TEST_SECRET_KEY };
  const nodes: TestGateway[] = [];
  for (let i = 0; i < count; i++) nodes.push(await startGateway({ env }));
  return {
    nodes,
    async close() {
      for (const node of nodes) await node.close();
      await schema.drop();
    },
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

export async function call(
  url: string,
  method: string,
  route: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.apiKey = options.key;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url + route, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, body: parsed };
}

export { eventually };

export interface TestAccount {
  accountId: string;
  apiKey: string;
  joinCode: string;
}

export async function createAccount(t: TestGateway, name = 'Test Co'): Promise<TestAccount> {
  const account = await createDomainAccount(t.gateway.repos.accounts, name);
  const { plainKey } = await createApiKey(t.gateway.repos.accounts, account.id, 'test');
  return { accountId: account.id, apiKey: plainKey, joinCode: account.joinCode };
}

/**
 * Gives the account a business number of its own on the simulated network (the CLI's `numbers add`), its
 * phone-number id its own digits. `sessionCheck: false` leaves the 24-hour rule to the network alone.
 */
export async function addSimulatedNumber(
  t: TestGateway,
  accountId: string,
  phone: string,
  options: { sessionCheck?: boolean } = {},
): Promise<void> {
  await t.gateway.repos.numbers.addNumber({
    accountId,
    phone,
    phoneNumberId: phone,
    sealedAccessToken: encryptSecret(t.gateway.config.simulator.accessToken, t.gateway.secretKey),
    sessionCheck: options.sessionCheck ?? true,
    wabaId: null,
  });
}

/** The account a portal user signed up, with an API key of its own made for the test. */
export async function portalAccount(t: TestGateway, email: string): Promise<TestAccount> {
  const user = await t.gateway.store.db
    .selectFrom('portal_users')
    .select('account_id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const account = await t.gateway.repos.accounts.findAccount(user.account_id);
  const { plainKey } = await createApiKey(t.gateway.repos.accounts, user.account_id, 'test');
  return { accountId: user.account_id, apiKey: plainKey, joinCode: account!.joinCode };
}

/** A virtual user writes to a business number through the simulator (a real HTTP call to its phone). */
export async function userSays(t: TestGateway, user: string, to: string, body: Record<string, unknown>) {
  const r = await call(t.url, 'POST', `/simulator/users/${user}/messages`, { body: { to, ...body } });
  if (r.status !== 202)
    throw new Error(`simulator refused the user message: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string };
}

/** The user joins the account's sandbox and the gateway has recorded it. */
export async function joinSandbox(t: TestGateway, account: TestAccount, user: string): Promise<void> {
  const sandbox = DEFAULT_SANDBOX_NUMBER;
  await userSays(t, user, sandbox, { text: `join ${account.joinCode}` });
  await eventually(
    async () => (await t.gateway.repos.conversations.sandboxAccountOf(sandbox, user)) === account.accountId,
  );
}

export async function receivedBy(t: TestGateway, user: string): Promise<any[]> {
  const r = await call(t.url, 'GET', `/simulator/users/${user}/messages`);
  return r.body.messages;
}

/**
 * A virtual user joins an account's sandbox through a simulator at `simulatorUrl` (another process, on a
 * cluster's shared database), and the join is recorded in `db`.
 */
export async function joinThroughSimulator(
  simulatorUrl: string,
  db: Kysely<Database>,
  account: { accountId: string; joinCode: string },
  user: string,
): Promise<void> {
  const said = await call(simulatorUrl, 'POST', `/simulator/users/${user}/messages`, {
    body: { to: DEFAULT_SANDBOX_NUMBER, text: `join ${account.joinCode}` },
  });
  if (said.status !== 202) throw new Error(`the simulator refused the join: ${JSON.stringify(said.body)}`);
  await eventually(async () => {
    const row = await db
      .selectFrom('sandbox_members')
      .select('account_id')
      .where('user_phone', '=', user)
      .executeTakeFirst();
    return row?.account_id === account.accountId;
  });
}
