/**
 * Operator commands, run as `npm run cli -- <command>`. They work on the database named by the same
 * configuration as the server (DATABASE_URL, DATA_DIR, NETWORK ...), whether or not the server runs.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.ts';
import { withInstallSecrets } from '../config/simulator-secrets.ts';
import { createAccount, findAccount, listAccounts } from '../domain/accounts.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../domain/api-keys.ts';
import { GatewayError } from '../domain/errors.ts';
import { listNumbers, registerNumber } from '../domain/numbers.ts';
import { openStore } from '../store/connect.ts';
import { migrateToLatest } from '../store/migrate.ts';
import { createRepositories } from '../store/repositories.ts';
import { loadOrCreateSecretKey } from '../store/secret-key.ts';

const USAGE = `Usage: npm run cli -- <command> [options]

  accounts create --name <name> [--json]     create an account with a first API key and a join code
  accounts list [--json]
  keys create --account <accountId> [--name <name>] [--json]
  keys list --account <accountId> [--json]
  keys revoke --account <accountId> --key <keyId or prefix>
  numbers add --account <accountId> --phone <+number> [--phone-number-id <id>] [--token <token>]
              [--waba-id <id>] [--no-session-check] [--json]
              (with NETWORK=simulator the phone-number id and token default to the simulator's;
               with NETWORK=cloud, templates and flows need the number's WhatsApp Business Account id)
  numbers list --account <accountId> [--json]
  simulator token [--json]                   print the token of the simulator's phone page, users and faults
  migrate                                    apply database migrations and exit`;

class UsageError extends Error {}

/** The option that carries each field the domain names in its errors. */
const OPTION_OF: Record<string, string> = {
  phone: '--phone',
  phoneNumberId: '--phone-number-id',
  accessToken: '--token',
  wabaId: '--waba-id',
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

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      key: { type: 'string' },
      phone: { type: 'string' },
      'phone-number-id': { type: 'string' },
      'waba-id': { type: 'string' },
      token: { type: 'string' },
      'no-session-check': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals.join(' ');
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const envConfig = loadConfig();
  // The simulator's credentials are derived from the install's secret key, as the server does.
  const secretKey = loadOrCreateSecretKey(envConfig.secretKey, envConfig.dataDir);
  const config = withInstallSecrets(envConfig, secretKey);
  if (command === 'simulator token') {
    if (config.network !== 'simulator') throw new UsageError('NETWORK=cloud runs no simulator');
    print(values.json === true, { token: config.simulator.token }, config.simulator.token);
    return;
  }
  const store = openStore(config.databaseUrl, { poolSize: 2 });
  try {
    await migrateToLatest(store);
    const repos = createRepositories(store);
    const json = values.json === true;

    const accountOf = async () => {
      const id = required(values, 'account');
      const account = await findAccount(repos.accounts, id);
      if (!account) throw new UsageError(`no account ${id}`);
      return account;
    };

    switch (command) {
      case 'accounts create': {
        const account = await createAccount(repos.accounts, required(values, 'name'));
        const { plainKey } = await createApiKey(repos.accounts, account.id, 'default');
        const out = {
          accountId: account.id,
          apiKey: plainKey,
          joinCode: account.joinCode,
          sandboxNumber: `+${config.sandboxNumber}`,
        };
        print(
          json,
          out,
          `account ${out.accountId}\napiKey ${out.apiKey} (shown once)\njoin code ${out.joinCode}\nsandbox number ${out.sandboxNumber}`,
        );
        return;
      }
      case 'accounts list': {
        const rows = (await listAccounts(repos.accounts)).map((a) => ({
          accountId: a.id,
          name: a.name,
          joinCode: a.joinCode,
          createdAt: new Date(a.createdAt).toISOString(),
        }));
        print(
          json,
          rows,
          rows.map((a) => `${a.accountId}  ${a.name}  join=${a.joinCode}  ${a.createdAt}`).join('\n') ||
            '(no accounts)',
        );
        return;
      }
      case 'keys create': {
        const account = await accountOf();
        const { key, plainKey } = await createApiKey(repos.accounts, account.id, values.name ?? 'key');
        print(
          json,
          { keyId: key.id, prefix: key.prefix, apiKey: plainKey },
          `key ${key.id}\napiKey ${plainKey} (shown once)`,
        );
        return;
      }
      case 'keys list': {
        const account = await accountOf();
        const rows = (await listApiKeys(repos.accounts, account.id)).map((k) => ({
          keyId: k.id,
          name: k.name,
          prefix: k.prefix,
          createdAt: new Date(k.createdAt).toISOString(),
          revokedAt: k.revokedAt ? new Date(k.revokedAt).toISOString() : null,
        }));
        print(
          json,
          rows,
          rows
            .map(
              (k) =>
                `${k.keyId}  ${k.prefix}…  ${k.name}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`,
            )
            .join('\n'),
        );
        return;
      }
      case 'keys revoke': {
        const account = await accountOf();
        const key = required(values, 'key');
        if (!(await revokeApiKey(repos.accounts, account.id, key)))
          throw new UsageError(`no active key ${key} in account ${account.id}`);
        print(json, { revoked: key }, `revoked ${key}`);
        return;
      }
      case 'numbers add': {
        const account = await accountOf();
        const deps = {
          numbers: repos.numbers,
          secretKey,
          sandboxPhone: config.sandboxNumber,
          simulatorAccessToken: config.network === 'simulator' ? config.simulator.accessToken : null,
        };
        const row = await registerNumber(deps, account.id, {
          phone: required(values, 'phone'),
          phoneNumberId: values['phone-number-id'],
          accessToken: values.token,
          wabaId: values['waba-id'],
          sessionCheck: !values['no-session-check'],
        }).catch((error: unknown) => {
          throw error instanceof GatewayError ? usageErrorOf(error) : error;
        });
        const { phone, phoneNumberId, wabaId } = row;
        print(
          json,
          { numberId: row.id, phone: `+${phone}`, phoneNumberId, wabaId },
          `number ${row.id} +${phone} (phone-number id ${phoneNumberId})`,
        );
        return;
      }
      case 'numbers list': {
        const account = await accountOf();
        const rows = (await listNumbers(repos.numbers, account.id)).map((n) => ({
          numberId: n.id,
          phone: `+${n.phone}`,
          phoneNumberId: n.phoneNumberId,
          wabaId: n.wabaId,
          sessionCheck: n.sessionCheck,
        }));
        print(
          json,
          rows,
          rows.map((n) => `${n.numberId}  ${n.phone}  id=${n.phoneNumberId}`).join('\n') || '(no numbers)',
        );
        return;
      }
      case 'migrate':
        print(json, { migrated: true }, 'database is up to date');
        return;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } finally {
    await store.close();
  }
}

run(process.argv.slice(2)).catch((error) => {
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
});
