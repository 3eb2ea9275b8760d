/**
 * Operator commands, run as `npm run cli -- <command>`. They work on the database named by the same
 * configuration as the server (DATABASE_URL, DATA_DIR, NETWORK ...), whether or not the server runs.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.ts';
import { withInstallSecrets } from '../config/simulator-secrets.ts';
import { normalizePhone } from '../lib/phone.ts';
import { encryptSecret } from '../lib/sealed-secrets.ts';
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
      const account = await repos.accounts.findAccount(id);
      if (!account) throw new UsageError(`no account ${id}`);
      return account;
    };

    switch (command) {
      case 'accounts create': {
        const account = await repos.accounts.createAccount(required(values, 'name'));
        const { key } = await repos.accounts.createKeyForAccount(account.id, 'default');
        const out = {
          accountId: account.id,
          apiKey: key,
          joinCode: account.join_code,
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
        const rows = (await repos.accounts.listAccounts()).map((a) => ({
          accountId: a.id,
          name: a.name,
          joinCode: a.join_code,
          createdAt: new Date(a.created_at).toISOString(),
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
        const { row, key } = await repos.accounts.createKeyForAccount(account.id, values.name ?? 'key');
        print(
          json,
          { keyId: row.id, prefix: row.prefix, apiKey: key },
          `key ${row.id}\napiKey ${key} (shown once)`,
        );
        return;
      }
      case 'keys list': {
        const account = await accountOf();
        const rows = (await repos.accounts.listKeysOfAccount(account.id)).map((k) => ({
          keyId: k.id,
          name: k.name,
          prefix: k.prefix,
          createdAt: new Date(k.created_at).toISOString(),
          revokedAt: k.revoked_at ? new Date(k.revoked_at).toISOString() : null,
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
        if (!(await repos.accounts.revokeKeyOfAccount(account.id, key)))
          throw new UsageError(`no active key ${key} in account ${account.id}`);
        print(json, { revoked: key }, `revoked ${key}`);
        return;
      }
      case 'numbers add': {
        const account = await accountOf();
        const phone = normalizePhone(required(values, 'phone'));
        if (!phone) throw new UsageError('--phone must be a valid phone number with country code');
        if (phone === config.sandboxNumber)
          throw new UsageError('that is the sandbox number, which every account shares already');
        const simulated = config.network === 'simulator';
        const phoneNumberId = values['phone-number-id'] ?? (simulated ? phone : undefined);
        const token = values.token ?? (simulated ? config.simulator.accessToken : undefined);
        if (!phoneNumberId || !token)
          throw new UsageError('--phone-number-id and --token are required with NETWORK=cloud');
        const wabaId = values['waba-id']?.trim() || null;
        if (wabaId !== null && !/^\d{1,20}$/.test(wabaId))
          throw new UsageError('--waba-id must be the numeric id of a WhatsApp Business Account');
        if (await repos.numbers.findNumberByPhone(phone))
          throw new UsageError(`+${phone} is registered already`);
        const row = await repos.numbers.addNumber({
          account_id: account.id,
          phone,
          phone_number_id: phoneNumberId,
          access_token_enc: encryptSecret(token, secretKey),
          session_check: values['no-session-check'] ? 0 : 1,
          waba_id: wabaId,
        });
        print(
          json,
          { numberId: row.id, phone: `+${phone}`, phoneNumberId, wabaId },
          `number ${row.id} +${phone} (phone-number id ${phoneNumberId})`,
        );
        return;
      }
      case 'numbers list': {
        const account = await accountOf();
        const rows = (await repos.numbers.listNumbersOfAccount(account.id)).map((n) => ({
          numberId: n.id,
          phone: `+${n.phone}`,
          phoneNumberId: n.phone_number_id,
          wabaId: n.waba_id ?? null,
          sessionCheck: n.session_check === 1,
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
