/**
 * Operator commands, run as `npm run cli -- <command>` (entry: src/cli/main.ts). They work on the database
 * named by the same configuration as the server (DATABASE_URL, DATA_DIR, NETWORK ...), whether or not the
 * server runs.
 */
import { parseArgs } from 'node:util';
import { installSecrets, openOperatorStore } from '../app/open-storage.ts';
import { type Config, ConfigError, loadConfig } from '../config/config.ts';
import { createAccount, findAccount, listAccounts } from '../domain/accounts.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../domain/api-keys.ts';
import { GatewayError } from '../domain/errors.ts';
import {
  listNumbers,
  registerNumber,
  setNumberMessagingLimit,
  setNumberThroughput,
} from '../domain/numbers.ts';
import { listOptOuts, OPT_OUTS_PER_PAGE } from '../domain/opt-outs.ts';
import { checkEmailFree, inviteEmailOf, operatorPortalLink } from '../domain/portal-invites.ts';
import { portalInviteLink } from '../lib/portal-links.ts';
import { userLabel } from '../lib/user-id.ts';
import { USAGE } from './usage.ts';

class UsageError extends Error {
  /** Whether the whole usage helps (an unknown command), or only the one line would be buried in it. */
  readonly showUsage: boolean;
  constructor(message: string, showUsage = false) {
    super(message);
    this.showUsage = showUsage;
  }
}

/** The option that carries each field the domain names in its errors. */
const OPTION_OF: Record<string, string> = {
  phone: '--phone',
  phoneNumberId: '--phone-number-id',
  accessToken: '--token',
  wabaId: '--waba-id',
  maxSendsPerSecond: '--per-second',
  messagingLimit: '--limit',
  email: '--email',
  accountId: '--account',
  number: '--number',
  user: '--user',
};

/** A rule the domain enforces, told in the words of this command line: its fields as options. */
function usageErrorOf(error: GatewayError): UsageError {
  return new UsageError(error.message.replace(/`(\w+)`/g, (name, field: string) => OPTION_OF[field] ?? name));
}

function required(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v.trim();
}

/** Where a command reads its configuration and writes its answers: the process's own, or a caller's. */
export interface CliIo {
  env: Readonly<Record<string, string | undefined>>;
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
}

function print(ctx: { json: boolean; io: CliIo }, value: unknown, text: string): void {
  ctx.io.out.write(ctx.json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      account: { type: 'string' },
      key: { type: 'string' },
      phone: { type: 'string' },
      'phone-number-id': { type: 'string' },
      'waba-id': { type: 'string' },
      'per-second': { type: 'string' },
      limit: { type: 'string' },
      number: { type: 'string' },
      user: { type: 'string' },
      token: { type: 'string' },
      'no-session-check': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

type Values = ReturnType<typeof parseOptions>['values'];

/** What every command works with: its options, the output mode, the store, the configuration. */
interface CommandContext {
  values: Values;
  json: boolean;
  repos: Awaited<ReturnType<typeof openOperatorStore>>['repos'];
  config: Readonly<Config>;
  secretKey: Buffer;
  io: CliIo;
}

async function accountOf(ctx: CommandContext) {
  const id = required(ctx.values, 'account');
  const account = await findAccount(ctx.repos.accounts, id);
  if (!account) throw new UsageError(`no account ${id}`);
  return account;
}

/** A domain rule broken by an option: told as a usage error naming the option. */
function asUsage(error: unknown): never {
  throw error instanceof GatewayError ? usageErrorOf(error) : error;
}

/** The value of a domain rule, or its refusal told as a usage error. */
function orUsage<T>(rule: () => T): T {
  try {
    return rule();
  } catch (error) {
    return asUsage(error);
  }
}

/**
 * A one-time portal link for the account (and `email`, when given): the password link of the member who
 * has the email, or an invitation of a new owner. Its address and expiry.
 */
async function portalLinkOf(ctx: CommandContext, accountId: string, email: string | undefined) {
  const invite = await operatorPortalLink(
    { accounts: ctx.repos.accounts, invites: ctx.repos.portalInvites },
    { accountId, email },
    Date.now(),
  ).catch(asUsage);
  return {
    portalLink: portalInviteLink(ctx.config.publicUrl, invite.token),
    expiresAt: new Date(invite.expiresAt).toISOString(),
  };
}

/** `accounts create` */
async function accountsCreate(ctx: CommandContext): Promise<void> {
  const name = required(ctx.values, 'name');
  const raw = ctx.values.email;
  // Checked before anything is made: a malformed email leaves no account behind.
  const email = orUsage(() => inviteEmailOf(raw));
  if (email !== null) await checkEmailFree(ctx.repos.portalInvites, email, undefined).catch(asUsage);
  const account = await createAccount(ctx.repos.accounts, name);
  const { plainKey } = await createApiKey(ctx.repos.accounts, account.id, 'default');
  const link = email === null ? undefined : await portalLinkOf(ctx, account.id, email);
  const out = {
    accountId: account.id,
    apiKey: plainKey,
    joinCode: account.joinCode,
    sandboxNumber: `+${ctx.config.sandboxNumber}`,
    ...link,
  };
  const lines = [
    `account ${out.accountId}`,
    `apiKey ${out.apiKey} (shown once)`,
    `join code ${out.joinCode}`,
    `sandbox number ${out.sandboxNumber}`,
  ];
  if (link) lines.push(`portal link ${link.portalLink} (for ${email}; works once, until ${link.expiresAt})`);
  print(ctx, out, lines.join('\n'));
}

/** `users invite` */
async function usersInvite(ctx: CommandContext): Promise<void> {
  const account = await accountOf(ctx);
  const link = await portalLinkOf(ctx, account.id, ctx.values.email);
  print(ctx, link, `portal link ${link.portalLink} (works once, until ${link.expiresAt})`);
}

/** `accounts list` */
async function accountsList(ctx: CommandContext): Promise<void> {
  const rows = (await listAccounts(ctx.repos.accounts)).map((a) => ({
    accountId: a.id,
    name: a.name,
    joinCode: a.joinCode,
    createdAt: new Date(a.createdAt).toISOString(),
  }));
  print(
    ctx,
    rows,
    rows.map((a) => `${a.accountId}  ${a.name}  join=${a.joinCode}  ${a.createdAt}`).join('\n') ||
      '(no accounts)',
  );
}

/** `keys create` */
async function keysCreate(ctx: CommandContext): Promise<void> {
  const account = await accountOf(ctx);
  const { key, plainKey } = await createApiKey(ctx.repos.accounts, account.id, ctx.values.name ?? 'key');
  print(
    ctx,
    { keyId: key.id, prefix: key.prefix, apiKey: plainKey },
    `key ${key.id}\napiKey ${plainKey} (shown once)`,
  );
}

/** `keys list` */
async function keysList(ctx: CommandContext): Promise<void> {
  const account = await accountOf(ctx);
  const rows = (await listApiKeys(ctx.repos.accounts, account.id)).map((k) => ({
    keyId: k.id,
    name: k.name,
    prefix: k.prefix,
    createdAt: new Date(k.createdAt).toISOString(),
    revokedAt: k.revokedAt ? new Date(k.revokedAt).toISOString() : null,
  }));
  print(
    ctx,
    rows,
    rows
      .map((k) => `${k.keyId}  ${k.prefix}…  ${k.name}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`)
      .join('\n'),
  );
}

/** `keys revoke` */
async function keysRevoke(ctx: CommandContext): Promise<void> {
  const account = await accountOf(ctx);
  const key = required(ctx.values, 'key');
  if (!(await revokeApiKey(ctx.repos.accounts, account.id, key)))
    throw new UsageError(`no active key ${key} in account ${account.id}`);
  print(ctx, { revoked: key }, `revoked ${key}`);
}

/** `numbers add` */
async function numbersAdd(ctx: CommandContext): Promise<void> {
  const account = await accountOf(ctx);
  const deps = {
    numbers: ctx.repos.numbers,
    secretKey: ctx.secretKey,
    sandboxPhone: ctx.config.sandboxNumber,
    simulatorAccessToken: ctx.config.network === 'simulator' ? ctx.config.simulator.accessToken : null,
  };
  const row = await registerNumber(deps, account.id, {
    phone: required(ctx.values, 'phone'),
    phoneNumberId: ctx.values['phone-number-id'],
    accessToken: ctx.values.token,
    wabaId: ctx.values['waba-id'],
    sessionCheck: !ctx.values['no-session-check'],
  }).catch(asUsage);
  const { phone, phoneNumberId, wabaId } = row;
  print(
    ctx,
    { numberId: row.id, phone: `+${phone}`, phoneNumberId, wabaId },
    `number ${row.id} +${phone} (phone-number id ${phoneNumberId})`,
  );
}

/** `numbers list` */
async function numbersList(ctx: CommandContext): Promise<void> {
  const account = await accountOf(ctx);
  const rows = (await listNumbers(ctx.repos.numbers, account.id)).map((n) => ({
    numberId: n.id,
    phone: `+${n.phone}`,
    phoneNumberId: n.phoneNumberId,
    wabaId: n.wabaId,
    sessionCheck: n.sessionCheck,
  }));
  print(
    ctx,
    rows,
    rows.map((n) => `${n.numberId}  ${n.phone}  id=${n.phoneNumberId}`).join('\n') || '(no numbers)',
  );
}

/** `opt-outs list`: the latest, as the API lists them (src/domain/opt-outs.ts). */
async function optOutsList(ctx: CommandContext): Promise<void> {
  const account = await accountOf(ctx);
  const { number, user } = ctx.values;
  const query = { number, user, page: 1, perPage: OPT_OUTS_PER_PAGE };
  const { optOuts, total } = await listOptOuts(ctx.repos.optOuts, account.id, query).catch(asUsage);
  const lines = optOuts.map(
    (o) => `${o.timestamp}  ${userLabel(o.from)}  +${o.to}  ${o.source}${o.keyword ? ` ${o.keyword}` : ''}`,
  );
  const more = total > optOuts.length ? `\n(${total} in all; the ${optOuts.length} latest shown)` : '';
  print(ctx, { optOuts, total }, `${lines.join('\n') || '(no opt-outs)'}${more}`);
}

/** `numbers throughput` */
async function numbersThroughput(ctx: CommandContext): Promise<void> {
  const account = await accountOf(ctx);
  const raw = required(ctx.values, 'per-second');
  const perSecond = raw === 'default' ? null : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  await setNumberThroughput(ctx.repos.numbers, account.id, required(ctx.values, 'phone'), perSecond).catch(
    asUsage,
  );
  const tier = perSecond ?? ctx.config.graph.maxSendsPerSecond;
  print(
    ctx,
    { phone: ctx.values.phone, maxSendsPerSecond: perSecond },
    `sends from ${ctx.values.phone} are paced to ${tier} per second${perSecond === null ? ' (the default)' : ''}`,
  );
}

/** `numbers messaging-limit` */
async function numbersMessagingLimit(ctx: CommandContext): Promise<void> {
  const account = await accountOf(ctx);
  const raw = required(ctx.values, 'limit').replaceAll(',', '');
  const limit = raw === 'unlimited' ? null : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  const phone = required(ctx.values, 'phone');
  await setNumberMessagingLimit(ctx.repos.numbers, account.id, phone, limit).catch(asUsage);
  print(
    ctx,
    { phone: ctx.values.phone, messagingLimit: limit },
    limit === null
      ? `${phone} may reach any number of users (unlimited)`
      : `campaigns from ${phone} reach at most ${limit} new users in 24 hours`,
  );
}

/** `migrate` */
async function migrate(ctx: CommandContext): Promise<void> {
  print(ctx, { migrated: true }, 'database is up to date');
}

const COMMANDS: Record<string, (ctx: CommandContext) => Promise<void>> = {
  'accounts create': accountsCreate,
  'accounts list': accountsList,
  'users invite': usersInvite,
  'keys create': keysCreate,
  'keys list': keysList,
  'keys revoke': keysRevoke,
  'numbers add': numbersAdd,
  'numbers list': numbersList,
  'numbers throughput': numbersThroughput,
  'numbers messaging-limit': numbersMessagingLimit,
  'opt-outs list': optOutsList,
  migrate: migrate,
};

async function run(argv: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseOptions(argv);
  const command = positionals.join(' ');
  if (values.help || !command) {
    io.out.write(`${USAGE}\n`);
    return;
  }
  // The simulator's credentials are derived from the install's secret key, as the server does.
  const { config, secretKey } = installSecrets(loadConfig(io.env));
  const json = values.json === true;
  if (command === 'simulator token') {
    if (config.network !== 'simulator') throw new UsageError('NETWORK=cloud runs no simulator');
    print({ json, io }, { token: config.simulator.token }, config.simulator.token);
    return;
  }
  if (command === 'simulator access-token') {
    if (config.network !== 'simulator') throw new UsageError('NETWORK=cloud runs no simulator');
    const { accessToken } = config.simulator;
    print({ json, io }, { accessToken }, accessToken);
    return;
  }
  const handler = COMMANDS[command];
  if (!handler) throw new UsageError(`unknown command "${command}"`, true);
  const { repos, close } = await openOperatorStore(config);
  try {
    await handler({ values, json, repos, config, secretKey, io });
  } finally {
    await close();
  }
}

/**
 * Runs the command of `argv` and resolves with its exit code: 0, 2 for a usage or configuration error, 1 for
 * any other failure, told on `io.err`. The suites call it in their own process, with an environment of their
 * own, where starting a process for each command would cost more than the command.
 */
export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  try {
    await run(argv, io);
    return 0;
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      const full = !(error instanceof UsageError) || error.showUsage;
      const after = full ? `\n${USAGE}` : '(npm run cli -- --help lists the commands and their options)';
      io.err.write(`error: ${(error as Error).message}\n${after}\n`);
      return 2;
    }
    io.err.write(`error: ${error instanceof Error ? error.stack : String(error)}\n`);
    return 1;
  }
}

/** The process's entry (src/cli/main.ts): a failed command ends the process with its code at once. */
export function runCli(argv: string[]): void {
  void runCommand(argv, { env: process.env, out: process.stdout, err: process.stderr }).then((code) => {
    if (code !== 0) process.exit(code);
  });
}
