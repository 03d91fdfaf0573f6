// `stratum keys create|list|revoke`: API keys of the embedded store (the data directory the server
// uses). `create` prints the new key alone on stdout, so scripts can capture it.
import { parseCommandArgs } from './parse-command-args.js';
import { AccountError, AccountService } from '../service/account-service.js';
import { ConfigError, isDistributed, loadConfig, type ServiceConfig } from '../service/config.js';
import { openEmbeddedStores } from '../store/embedded-stores.js';

const HELP = `usage:
  stratum keys create --name NAME [--account ACCOUNT]   new key; prints the key alone on stdout
  stratum keys list [--json]                            keys (id = OAuth2 client_id), never the secrets
  stratum keys revoke KEY_ID                            the key (and its tokens) stop working, within
                                                        STRATUM_AUTH_CACHE_S (5 s) in a running service

Without --account a key gets a new account of its own (files and tasks are per account); with
--account ACCOUNT (an account id or name) it shares that account. Options for all: --data-dir DIR
(default STRATUM_DATA_DIR or ./data), --config FILE.
`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
      config: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action, ...rest] = positionals;
  if (values.help || !action) {
    (values.help ? process.stdout : process.stderr).write(HELP);
    return values.help ? 0 : 2;
  }
  let config: ServiceConfig;
  try {
    config = loadConfig({
      ...(values.config ? { configFile: values.config } : {}),
      overrides: { dataDir: values['data-dir'] },
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`stratum keys: ${err.message}\n`);
      return 2;
    }
    throw err;
  }

  // distributed mode (DATABASE_URL set): the keys live in PostgreSQL
  const stores = isDistributed(config)
    ? await (await import('../store/distributed-stores.js')).openDistributedStores(config.databaseUrl, {
        applicationName: 'stratum-keys',
        poolMax: 2,
      })
    : openEmbeddedStores(config.dataDir);
  const accounts = new AccountService(stores.metadata);
  try {
    switch (action) {
      case 'create': {
        if (!values.name) {
          process.stderr.write('stratum keys create: --name NAME is required\n');
          return 2;
        }
        const created = await accounts.createKey(values.name, values.account);
        process.stdout.write(`${created.key}\n`);
        process.stderr.write(
          `created key ${created.record.id} (account ${created.account.name}, ${created.account.id}); ` +
            'the key is shown only now\n',
        );
        return 0;
      }
      case 'list': {
        const keys = await accounts.listKeys();
        if (values.json) {
          const rows = keys.map(({ keyHash: _hash, ...k }) => k);
          process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
          return 0;
        }
        if (keys.length === 0) {
          process.stdout.write('no keys; create one with `stratum keys create --name NAME`\n');
          return 0;
        }
        const lines = keys.map((k) =>
          [k.id, k.name, k.accountId, new Date(k.createdAt).toISOString(), k.revokedAt ? 'revoked' : 'active'].join('  '),
        );
        process.stdout.write(`${['id  name  account  created  state', ...lines].join('\n')}\n`);
        return 0;
      }
      case 'revoke': {
        const id = rest[0];
        if (!id) {
          process.stderr.write('stratum keys revoke: which key? (an id from `stratum keys list`)\n');
          return 2;
        }
        if (!(await accounts.revokeKey(id))) {
          process.stderr.write(`stratum keys revoke: no active key ${id}\n`);
          return 1;
        }
        process.stderr.write(`revoked ${id}\n`);
        return 0;
      }
      default:
        process.stderr.write(`stratum keys: unknown action "${action}"\n\n${HELP}`);
        return 2;
    }
  } catch (err) {
    if (err instanceof AccountError) {
      process.stderr.write(`stratum keys: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await stores.close();
  }
}
