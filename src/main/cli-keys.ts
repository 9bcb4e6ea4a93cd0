// `npm run -s cli -- keys …`: API keys. `keys create` writes the key alone on stdout (what it made goes to stderr), so
// a script or a doc keeps it with KEY=$(npm run -s cli -- keys create …).
import { DEFAULT_ORG, type Core } from './core/create-core.js';
import { AppError } from './core/errors.js';

export const KEYS_USAGE = `  keys create [--org NAME] [--name LABEL] [--scopes a,b] [--json]
                                                         create an API key: stdout is the key alone (with --json,
                                                         {id, key, org_id, name, scopes}), what was made goes to
                                                         stderr; KEY=$(npm run -s cli -- keys create …) keeps it.
                                                         --org: created when new; default the only organization
                                                         (on a new data dir, the first run's: default)
  keys list [--org NAME] [--json]                        list keys (never their plaintext)
  keys revoke ID                                         revoke a key at once`;

type Values = Record<string, string | boolean | string[] | undefined>;
type Org = { id: string; name: string };

export interface KeysIo {
  out(line: string): void;
  /** What a command did, when stdout carries only its result: on stderr. */
  note(line: string): void;
  requireOrg(ref: string | undefined): Org;
  orgOrOnly(ref: string | undefined): Org;
  usage(message: string): Error;
}

/**
 * The organization of a new key: `--org NAME`, created when there is none of that name; without it the only one, or
 * on a data dir without any yet the one the first run would make (default), so the server's first run makes none.
 */
function keyOrg(core: Core, ref: string | undefined, io: KeysIo): Org {
  const name = ref ?? (core.orgs.list().length === 0 ? DEFAULT_ORG : undefined);
  if (name === undefined) return io.orgOrOnly(undefined);
  const found = core.orgs.resolve(name);
  if (found) return found;
  const org = core.orgs.create(name);
  io.note(`created organization ${org.name} (${org.id})`);
  return org;
}

export function keysCommand(core: Core, action: string | undefined, rest: string[], v: Values, io: KeysIo): void {
  if (action === 'create') {
    if (rest.length) throw io.usage(`keys create takes no arguments, only options (got: ${rest.join(' ')})`);
    const org = keyOrg(core, v.org as string | undefined, io);
    const scopes = v.scopes
      ? String(v.scopes)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
    const { key, info } = core.keys.create(org.id, { scopes, name: v.name ? String(v.name) : undefined });
    io.note(`created key ${info.id} for ${org.name} with scopes ${info.scopes.join(',')} (shown once; store it now)`);
    if (v.json)
      return io.out(JSON.stringify({ id: info.id, key, org_id: org.id, name: info.name, scopes: info.scopes }));
    return io.out(key);
  }
  if (action === 'list') {
    const org = v.org ? io.requireOrg(String(v.org)) : undefined;
    const keys = core.keys.list(org?.id);
    if (v.json) return io.out(JSON.stringify(keys, null, 2));
    const orgNames = new Map(core.orgs.list().map((o) => [o.id, o.name]));
    for (const k of keys) {
      const state = k.revoked_at ? 'revoked' : k.expires_at && k.expires_at < Date.now() ? 'expired' : 'active';
      io.out(
        `${k.id}  ${k.prefix}…  ${orgNames.get(k.org_id) ?? k.org_id}  ${state}  ${k.scopes.join(',')}  ${k.name}`,
      );
    }
    if (!keys.length) io.out('no keys');
    return;
  }
  if (action === 'revoke') {
    const id = rest[0];
    if (!id || rest.length > 1) throw io.usage('keys revoke takes one key id (see: keys list)');
    if (!core.keys.revoke(id)) throw new AppError(404, 'not_found', `No active key with id ${id}`);
    return io.out(`revoked ${id}`);
  }
  throw io.usage(`unknown command: keys ${action ?? ''}`.trim());
}
