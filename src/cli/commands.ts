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
import { checkEmailFree, inviteEmailOf, issuePortalInvite } from '../domain/portal-invites.ts';
import { portalInviteLink } from '../lib/portal-links.ts';
import { userLabel } from '../lib/user-id.ts';

const USAGE = `Usage: npm run cli -- <command> [options]

  accounts create --name <name> [--email <email>] [--json]
              create an account with a first API key and a join code; with --email, also a one-time
              link for that person to set a portal password
  accounts list [--json]
  users invite --account <accountId> [--email <email>] [--json]
              print a one-time link into the account's portal (72 hours; works once); it sets the
              password of the account's user with that email, or makes one
  keys create --account <accountId> [--name <name>] [--json]
  keys list --account <accountId> [--json]
  keys revoke --account <accountId> --key <keyId or prefix>
  numbers add --account <accountId> --phone <+number> [--phone-number-id <id>] [--token <token>]
              [--waba-id <id>] [--no-session-check] [--json]
              (with NETWORK=simulator the phone-number id and token default to the simulator's;
               with NETWORK=cloud, templates and flows need the number's WhatsApp Business Account id)
  numbers list --account <accountId> [--json]
  numbers throughput --account <accountId> --phone <+number> --per-second <1-1000 | default> [--json]
              (the number's throughput tier on the network, which the gateway paces its sends to)
  numbers messaging-limit --account <accountId> --phone <+number>
              --limit <250 | 1000 | 2000 | 10000 | 100000 | unlimited> [--json]
              (unique users the number may reach in 24 hours; its campaigns pause at it)
  opt-outs list --account <accountId> [--number <+number>] [--user <+number or user id>] [--json]
              (the 200 latest users opted out of the account's marketing, as GET /api/v1/opt-outs lists them)
  simulator token [--json]                   print the token of the simulator's phone page, users and faults
  migrate                                    apply database migrations and exit`;

class UsageError extends Error {}

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

function print(json: boolean, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
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

/** A one-time portal link for the account (and `email`, when given): its address and expiry. */
async function portalLinkOf(ctx: CommandContext, accountId: string, email: string | undefined) {
  const invite = await issuePortalInvite(
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
  print(ctx.json, out, lines.join('\n'));
}

/** `users invite` */
async function usersInvite(ctx: CommandContext): Promise<void> {
  const account = await accountOf(ctx);
  const link = await portalLinkOf(ctx, account.id, ctx.values.email);
  print(ctx.json, link, `portal link ${link.portalLink} (works once, until ${link.expiresAt})`);
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
    ctx.json,
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
    ctx.json,
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
    ctx.json,
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
  print(ctx.json, { revoked: key }, `revoked ${key}`);
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
    ctx.json,
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
    ctx.json,
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
  print(ctx.json, { optOuts, total }, `${lines.join('\n') || '(no opt-outs)'}${more}`);
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
    ctx.json,
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
    ctx.json,
    { phone: ctx.values.phone, messagingLimit: limit },
    limit === null
      ? `${phone} may reach any number of users (unlimited)`
      : `campaigns from ${phone} reach at most ${limit} new users in 24 hours`,
  );
}

/** `migrate` */
async function migrate(ctx: CommandContext): Promise<void> {
  print(ctx.json, { migrated: true }, 'database is up to date');
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

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseOptions(argv);
  const command = positionals.join(' ');
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // The simulator's credentials are derived from the install's secret key, as the server does.
  const { config, secretKey } = installSecrets(loadConfig());
  if (command === 'simulator token') {
    if (config.network !== 'simulator') throw new UsageError('NETWORK=cloud runs no simulator');
    print(values.json === true, { token: config.simulator.token }, config.simulator.token);
    return;
  }
  const handler = COMMANDS[command];
  if (!handler) throw new UsageError(`unknown command "${command}"`);
  const { repos, close } = await openOperatorStore(config);
  try {
    await handler({ values, json: values.json === true, repos, config, secretKey });
  } finally {
    await close();
  }
}

/** Runs the command of `argv`; exit code 2 for a usage or configuration error, 1 for any other failure. */
export function runCli(argv: string[]): void {
  run(argv).catch(fail);
}

function fail(error: unknown): void {
  if (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  ) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`error: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
}
