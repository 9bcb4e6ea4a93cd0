// Command-line administration: `npm run -s cli -- <command>`. Works on the same data dir as the server.
import { parseArgs } from 'node:util';
import { APP_NAME } from './core/config/app-paths.js';
import { ConfigError, loadConfig } from './core/config/load-config.js';
import { createCore, type Core } from './core/create-core.js';
import { AppError, issuesText } from './core/errors.js';
import { zodMessage } from './core/http/route.js';
import { isKeyedProvider } from './core/video/pipeline/providers/provider-registry.js';
import { PROVIDER_KEYS } from '../shared/provider.schema.js';
import { MailboxCreateSchema } from '../shared/mailboxes.schema.js';
import { CREDENTIALS_USAGE, credentialsCommand } from './cli-credentials.js';
import { KEYS_USAGE, keysCommand } from './cli-keys.js';
import { SESSIONS_IMPORT_USAGE, sessionsImportCommand } from './cli-sessions-import.js';
import { BROWSER_PROFILES_USAGE, browserProfilesCommand } from './cli-browser-profiles.js';
import { BACKUP_USAGE, backupCommand, isRestoreProblem, restoreCommand, type BackupIo } from './cli-backup.js';
import { SCOPES } from '../shared/scopes.js';

const USAGE = `usage: npm run -s cli -- <command> [options] [--data-dir DIR] [--json]

options:
  --data-dir DIR                                         the data dir to work on (default: $AGENT_STUDIO_DATA_DIR,
                                                         else "${APP_NAME}" in the OS app-data folder:
                                                         ~/.config, ~/Library/Application Support, %APPDATA%)
  --json                                                 JSON on stdout instead of text, where a command offers it
                                                         (keys create and list, orgs list, mailboxes list,
                                                         credentials list, sessions import, browser-profiles orgs,
                                                         secrets missing)
  -h, --help                                             this text

commands:
${KEYS_USAGE}
  orgs list [--json]                                     list organizations
  orgs create NAME                                       create an organization
  credits grant --org NAME --amount N                    add N credits to an organization
  credits balance --org NAME                             show an organization's balance
  webhooks secret --org NAME                             the webhook signing secret (alone on the last line)
  webhooks rotate --org NAME                             a new signing secret; the old one signs 24 h more
  providers set-key fal|replicate                        store a video provider's API key, read from stdin
  providers delete-key fal|replicate                     remove a stored provider key
  mailboxes add --address A [--address B] --host H --port P [--secure] --username U [--name N] [--org NAME]
                [--allow-insecure-auth]                  add an IMAP mailbox for login codes and links; the
                                                         password is read from $MAILBOX_PASSWORD or stdin;
                                                         without --secure STARTTLS is required (except on
                                                         loopback); --allow-insecure-auth logs in without TLS
                                                         when the server offers no STARTTLS
  mailboxes list [--org NAME] [--json]                   list mailboxes (never their passwords)
  mailboxes remove ID                                    remove a mailbox and its stored password
${CREDENTIALS_USAGE}
${SESSIONS_IMPORT_USAGE}
${BROWSER_PROFILES_USAGE}
${BACKUP_USAGE}

scopes: * (all), ${SCOPES.join(', ')}`;

class UsageError extends Error {}

const OPTIONS = {
  org: { type: 'string' },
  scopes: { type: 'string' },
  name: { type: 'string' },
  amount: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  address: { type: 'string', multiple: true },
  host: { type: 'string' },
  port: { type: 'string' },
  secure: { type: 'boolean' },
  'allow-insecure-auth': { type: 'boolean' },
  username: { type: 'string' },
  label: { type: 'string' },
  url: { type: 'string' },
  method: { type: 'string' },
  origin: { type: 'string', multiple: true },
  share: { type: 'string' },
  totp: { type: 'boolean' },
  format: { type: 'string' },
  yes: { type: 'boolean' },
  list: { type: 'boolean' },
  profile: { type: 'string' },
  site: { type: 'string', multiple: true },
  credential: { type: 'string' },
  out: { type: 'string' },
  'without-media': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function out(line: string) {
  process.stdout.write(`${line}\n`);
}

/** What a command did, when stdout carries only its result (keys create): on stderr. */
function note(line: string) {
  process.stderr.write(`${line}\n`);
}

function requireOrg(core: Core, ref: string | undefined) {
  if (!ref) throw new UsageError('--org NAME is required');
  const org = core.orgs.resolve(ref);
  if (!org) throw new AppError(404, 'not_found', `No organization named "${ref}" (see: orgs list)`);
  return org;
}

type Values = Record<string, string | boolean | string[] | undefined>;

/** `--org NAME`, or the only organization when there is just one. */
function orgOrOnly(core: Core, ref: string | undefined) {
  if (ref) return requireOrg(core, ref);
  const orgs = core.orgs.list();
  if (orgs.length === 1) return orgs[0];
  throw new UsageError(
    orgs.length ? '--org NAME is required (there are several organizations)' : 'no organization yet',
  );
}

async function mailboxes(core: Core, action: string | undefined, rest: string[], v: Values): Promise<void> {
  const service = core.login.mailboxes.service;
  if (action === 'add') {
    const org = orgOrOnly(core, v.org as string | undefined);
    const settings = (password: string) =>
      MailboxCreateSchema.safeParse({
        name: v.name,
        addresses: v.address ?? [],
        imap: {
          host: v.host,
          port: v.port === undefined ? undefined : Number(v.port),
          secure: v.secure,
          allowInsecureAuth: v['allow-insecure-auth'],
          username: v.username,
          password,
        },
      });
    // The service's and the schema's words for fields, as the flags that set them.
    const asFlags = (text: string) =>
      text
        .replace(/\baddresses(\.\d+)?/g, '--address')
        .replace(/\b(imap\.)?allowInsecureAuth(: true)?/g, '--allow-insecure-auth')
        .replace(/\bsecure: true\b/g, '--secure')
        .replace(/\bimap\./g, '--');
    const flagsOf = (r: ReturnType<typeof settings>) => (r.success ? '' : asFlags(zodMessage(r.error)));
    // Checked before asking for the password, so nobody types it for a command that fails anyway.
    const flags = settings('-');
    if (!flags.success) throw new UsageError(flagsOf(flags));
    // Never from argv: arguments end up in shell history and in every process listing.
    const password = process.env.MAILBOX_PASSWORD || (await readSecretFromStdin('IMAP password'));
    if (!password) throw new UsageError('no password: set MAILBOX_PASSWORD or pipe it on stdin');
    const parsed = settings(password);
    if (!parsed.success) throw new UsageError(flagsOf(parsed));
    let m;
    try {
      m = await service.create(org.id, parsed.data);
    } catch (err) {
      // Settings the service will not use (a refused host, plain IMAP without leave): bad usage too.
      if (err instanceof AppError && err.status === 400) throw new UsageError(asFlags(issuesText(err)));
      throw err;
    }
    const where = core.secrets.backend === 'keychain' ? 'the OS keychain' : 'the encrypted secrets file';
    out(
      `added mailbox '${m.name}' of ${org.name} for ${m.addresses.join(', ')} (${m.imap.username} at ${m.imap.host}:${m.imap.port}${m.imap.secure ? ', TLS' : ''}); its password is in ${where}:`,
    );
    return out(m.id);
  }
  if (action === 'list') {
    const org = v.org ? requireOrg(core, String(v.org)) : undefined;
    const list = org ? service.list(org.id).map((m) => ({ ...m, orgId: org.id })) : service.listAll();
    if (v.json) return out(JSON.stringify(list, null, 2));
    const orgNames = new Map(core.orgs.list().map((o) => [o.id, o.name]));
    for (const m of list) {
      const tls = m.imap.secure ? ' tls' : m.imap.allowInsecureAuth ? ' insecure-auth' : '';
      const imap = `${m.imap.username}@${m.imap.host}:${m.imap.port}${tls}`;
      out(`${m.id}  ${orgNames.get(m.orgId) ?? m.orgId}  ${m.name}  ${m.addresses.join(',')}  ${imap}`);
    }
    if (!list.length) out('no mailboxes');
    return;
  }
  if (action === 'remove') {
    const id = rest[0];
    if (!id || rest.length > 1) throw new UsageError('mailboxes remove takes one mailbox id (see: mailboxes list)');
    const m = service.find(id);
    if (!m || !(await service.delete(m.orgId, id))) throw new AppError(404, 'not_found', `No mailbox with id ${id}`);
    return out(`removed mailbox ${id} ('${m.name}') and its password`);
  }
  throw new UsageError(`unknown command: mailboxes ${action ?? ''}`.trim());
}

async function run(core: Core, cmd: string[], v: Values): Promise<void> {
  const [group, action, ...rest] = cmd;
  const key = `${group ?? ''} ${action ?? ''}`.trim();
  switch (key) {
    case 'keys create':
    case 'keys list':
    case 'keys revoke':
      return keysCommand(core, action, rest, v, {
        out,
        note,
        requireOrg: (ref) => requireOrg(core, ref),
        orgOrOnly: (ref) => orgOrOnly(core, ref),
        usage: (message) => new UsageError(message),
      });
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
    case 'webhooks secret':
    case 'webhooks rotate': {
      const org = requireOrg(core, v.org as string | undefined);
      const webhooks = core.video.webhooks.service;
      const s = action === 'rotate' ? await webhooks.rotateSecret(org.id) : await webhooks.secret(org.id);
      if (s.previous_secret_expires_at)
        out(
          `${org.name}: the previous secret also signs until ${new Date(s.previous_secret_expires_at).toISOString()}`,
        );
      out(`webhook signing secret of ${org.name}${action === 'rotate' ? ' (new)' : ''}:`);
      return out(s.secret);
    }
    case 'providers set-key':
    case 'providers delete-key': {
      const name = rest[0];
      if (!name || rest.length > 1 || !isKeyedProvider(name))
        throw new UsageError(`providers ${action} takes fal or replicate (comfyui needs no key)`);
      const { account, label } = PROVIDER_KEYS[name];
      if (action === 'delete-key') {
        return out((await core.secrets.delete(account)) ? `removed the ${label} key` : `no ${label} key was set`);
      }
      // Never from argv: arguments end up in shell history and in every process listing.
      const secret = await readSecretFromStdin(`${label} API key`);
      if (!secret) throw new UsageError(`no key was given: pipe it in, e.g. printf %s "$KEY" | ... set-key ${name}`);
      if (/\s/.test(secret) || secret.length > 4096) throw new UsageError('the key must be one line without spaces');
      await core.secrets.set(account, secret);
      const where = core.secrets.backend === 'keychain' ? 'the OS keychain' : 'the encrypted secrets file';
      return out(`saved the ${label} key in ${where}`);
    }
    case 'mailboxes add':
    case 'mailboxes list':
    case 'mailboxes remove':
      return mailboxes(core, action, rest, v);
    case 'credentials add':
    case 'credentials list':
    case 'credentials remove':
    case 'credentials import':
      return credentialsCommand(core, action, rest, v, {
        out,
        readSecret: readSecretFromStdin,
        orgOrOnly: (ref) => orgOrOnly(core, ref),
        usage: (message) => new UsageError(message),
      });
    case 'sessions import':
      return sessionsImportCommand(core, v, {
        out,
        orgOrOnly: (ref) => orgOrOnly(core, ref),
        usage: (message) => new UsageError(message),
      });
    case 'browser-profiles orgs':
    case 'browser-profiles allow':
    case 'browser-profiles deny':
      return browserProfilesCommand(core, action, v, {
        out,
        requireOrg: (ref) => requireOrg(core, ref),
        usage: (message) => new UsageError(message),
      });
    case 'backup create':
    case 'secrets missing':
    case 'secrets forget-missing':
      return backupCommand(core, key, rest, v, backupIo);
    default:
      throw new UsageError(cmd.length ? `unknown command: ${cmd.join(' ')}` : 'missing command');
  }
}

/** A secret from stdin: piped text as is, or typed at a terminal without echo. Trimmed. */
async function readSecretFromStdin(what: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    let text = '';
    for await (const chunk of stdin) {
      text += String(chunk);
      if (text.length > 65_536) throw new UsageError(`the ${what} on stdin is too long`);
    }
    return text.trim();
  }
  process.stderr.write(`${what} (not shown; Enter to finish): `);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(value.trim());
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003') return finish(new UsageError('canceled'));
        value = ch === '\u007f' || ch === '\b' ? value.slice(0, -1) : value + ch;
      }
    };
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
  });
}

const backupIo: BackupIo = {
  out,
  readSecret: readSecretFromStdin,
  usage: (message) => new UsageError(message),
  interactive: Boolean(process.stdin.isTTY),
};

/** `backup restore` opens no core on the data dir first: that would make it an installation, which it refuses. */
async function restore(rest: string[], v: Values): Promise<number> {
  try {
    await restoreCommand(rest, v, backupIo);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`${isRestoreProblem(err) ? 'refused' : 'error'}: ${(err as Error).message}\n`);
    return 1;
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, allowNegative: true, strict: true });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    (parsed.values.help ? process.stdout : process.stderr).write(`${USAGE}\n`);
    return parsed.values.help ? 0 : 2;
  }
  const [group, action, ...rest] = parsed.positionals;
  if (group === 'backup' && action === 'restore') return restore(rest, parsed.values);
  let core: Core;
  try {
    core = createCore(loadConfig({ dataDir: parsed.values['data-dir'] }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return err instanceof ConfigError ? 2 : 1;
  }
  try {
    await run(core, parsed.positionals, parsed.values);
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

process.exitCode = await main(process.argv.slice(2));
