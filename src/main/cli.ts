// Command-line administration: `npm run -s cli -- <command>`. Works on the same data dir as the server.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './core/config/load-config.js';
import { createCore, type Core } from './core/create-core.js';
import { AppError } from './core/errors.js';
import { SCOPES } from '../shared/scopes.js';

const USAGE = `usage: npm run -s cli -- <command> [options] [--data-dir DIR]

commands:
  keys create --org NAME [--scopes a,b] [--name LABEL]   create an API key (printed alone on the last line)
  keys list [--org NAME] [--json]                        list keys (never their plaintext)
  keys revoke ID                                         revoke a key at once
  orgs list [--json]                                     list organizations
  orgs create NAME                                       create an organization
  credits grant --org NAME --amount N                    add N credits to an organization
  credits balance --org NAME                             show an organization's balance

scopes: * (all), ${SCOPES.join(', ')}`;

class UsageError extends Error {}

const OPTIONS = {
  org: { type: 'string' },
  scopes: { type: 'string' },
  name: { type: 'string' },
  amount: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function out(line: string) {
  process.stdout.write(`${line}\n`);
}

function requireOrg(core: Core, ref: string | undefined) {
  if (!ref) throw new UsageError('--org NAME is required');
  const org = core.orgs.resolve(ref);
  if (!org) throw new AppError(404, 'not_found', `No organization named "${ref}" (see: orgs list)`);
  return org;
}

function run(core: Core, cmd: string[], v: Record<string, string | boolean | undefined>): void {
  const [group, action, ...rest] = cmd;
  const key = `${group ?? ''} ${action ?? ''}`.trim();
  switch (key) {
    case 'keys create': {
      if (!v.org) throw new UsageError('--org NAME is required');
      let org = core.orgs.resolve(String(v.org));
      if (!org) {
        org = core.orgs.create(String(v.org));
        out(`created organization ${org.name} (${org.id})`);
      }
      const scopes = v.scopes
        ? String(v.scopes)
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined;
      const { key: plaintext, info } = core.keys.create(org.id, { scopes, name: v.name ? String(v.name) : undefined });
      out(`created key ${info.id} for ${org.name} with scopes ${info.scopes.join(',')} (shown once; store it now):`);
      out(plaintext);
      return;
    }
    case 'keys list': {
      const org = v.org ? requireOrg(core, String(v.org)) : undefined;
      const keys = core.keys.list(org?.id);
      if (v.json) return out(JSON.stringify(keys, null, 2));
      const orgNames = new Map(core.orgs.list().map((o) => [o.id, o.name]));
      for (const k of keys) {
        const state = k.revoked_at ? 'revoked' : k.expires_at && k.expires_at < Date.now() ? 'expired' : 'active';
        out(`${k.id}  ${k.prefix}…  ${orgNames.get(k.org_id) ?? k.org_id}  ${state}  ${k.scopes.join(',')}  ${k.name}`);
      }
      if (!keys.length) out('no keys');
      return;
    }
    case 'keys revoke': {
      const id = rest[0];
      if (!id || rest.length > 1) throw new UsageError('keys revoke takes one key id (see: keys list)');
      if (!core.keys.revoke(id)) throw new AppError(404, 'not_found', `No active key with id ${id}`);
      return out(`revoked ${id}`);
    }
    case 'orgs list': {
      const orgs = core.orgs.list();
      if (v.json)
        return out(
          JSON.stringify(
            orgs.map((o) => ({ ...o, balance: core.credits.balance(o.id) })),
            null,
            2,
          ),
        );
      for (const o of orgs) out(`${o.id}  ${o.name}  credits=${core.credits.balance(o.id)}`);
      if (!orgs.length) out('no organizations');
      return;
    }
    case 'orgs create': {
      if (rest.length !== 1) throw new UsageError('orgs create takes one NAME');
      const org = core.orgs.create(rest[0]);
      return out(`created organization ${org.name} (${org.id})`);
    }
    case 'credits grant': {
      const org = requireOrg(core, v.org as string | undefined);
      const amount = Number(v.amount);
      if (v.amount === undefined || !Number.isInteger(amount) || amount <= 0)
        throw new UsageError('--amount must be a positive whole number');
      const balance = core.credits.grant(org.id, amount, 'cli grant');
      return out(`granted ${amount} credits to ${org.name}; balance ${balance}`);
    }
    case 'credits balance': {
      const org = requireOrg(core, v.org as string | undefined);
      return out(`${org.name}: ${core.credits.balance(org.id)} credits`);
    }
    default:
      throw new UsageError(cmd.length ? `unknown command: ${cmd.join(' ')}` : 'missing command');
  }
}

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    (parsed.values.help ? process.stdout : process.stderr).write(`${USAGE}\n`);
    return parsed.values.help ? 0 : 2;
  }
  let core: Core;
  try {
    core = createCore(loadConfig({ dataDir: parsed.values['data-dir'] }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return err instanceof ConfigError ? 2 : 1;
  }
  try {
    run(core, parsed.positionals, parsed.values);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`error: ${(err as Error).message}\n`);
    return 1;
  } finally {
    void core.dispose();
  }
}

process.exitCode = main(process.argv.slice(2));
