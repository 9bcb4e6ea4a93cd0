// `npm run -s cli -- credentials …`: saved logins from the command line. Secrets come from the environment or
// stdin, never from argv (arguments end up in shell history and in every process listing), and are never printed.
import fs from 'node:fs';
import path from 'node:path';
import { CredentialImportRequestSchema, IMPORT_FORMATS } from '../shared/credentials.schema.js';
import type { Core } from './core/create-core.js';
import { AppError, issuesText } from './core/errors.js';

export const CREDENTIALS_USAGE = `  credentials add --label L --url LOGIN_URL [--username U] [--method M] [--origin O …] [--share all|KEY_ID,…]
                  [--totp] [--org NAME]                  save a login; the password is read from
                                                         $CREDENTIAL_PASSWORD or stdin, a TOTP secret (--totp)
                                                         from $CREDENTIAL_TOTP_SECRET or a second prompt
  credentials list [--org NAME] [--json]                 list saved logins (never their secrets)
  credentials remove ID_OR_LABEL [--org NAME]            remove a saved login and its secrets
  credentials import FILE --format F [--yes] [--share …] [--org NAME]
                                                         import a password-manager export (F: ${IMPORT_FORMATS.join(', ')});
                                                         shows what would be created, merged and skipped, and
                                                         saves only with --yes; the file is read once, not copied`;

type Values = Record<string, string | boolean | string[] | undefined>;

export interface CliIo {
  out(line: string): void;
  /** A secret typed without echo, or piped on stdin. */
  readSecret(what: string): Promise<string>;
  orgOrOnly(ref: string | undefined): { id: string; name: string };
  usage(message: string): Error;
}

const shareOf = (v: Values): 'all' | string[] =>
  !v.share || v.share === 'all'
    ? 'all'
    : String(v.share)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

export async function credentialsCommand(
  core: Core,
  action: string | undefined,
  rest: string[],
  v: Values,
  io: CliIo,
): Promise<void> {
  const saved = core.login.vault.savedLogins;
  const org = () => io.orgOrOnly(v.org as string | undefined);
  if (action === 'list') {
    const list = saved.list(org().id);
    if (v.json) return io.out(JSON.stringify(list, null, 2));
    for (const c of list) {
      const shared = c.shareWith === 'all' ? 'all keys' : `${c.shareWith.length} keys`;
      io.out(
        `${c.id}  ${c.label}  ${c.loginUrl}  ${c.username || '-'}  ${c.loginMethod}  [${c.secrets.join(',')}]  ${shared}`,
      );
    }
    if (!list.length) io.out('no saved logins');
    return;
  }
  if (action === 'remove') {
    if (rest.length !== 1) throw io.usage('credentials remove takes one id or label (see: credentials list)');
    const o = org();
    const found = saved.find(o.id, rest[0]);
    if (!found || !(await saved.delete(o.id, found.id)))
      throw new AppError(404, 'not_found', `No saved login "${rest[0]}" in ${o.name}`);
    return io.out(`removed saved login ${found.id} ('${found.label}') and its secrets`);
  }
  if (action === 'add') {
    if (!v.label || !v.url) throw io.usage('credentials add needs --label and --url');
    const o = org();
    const password = process.env.CREDENTIAL_PASSWORD || (await io.readSecret('password'));
    const totpSecret = v.totp ? process.env.CREDENTIAL_TOTP_SECRET || (await io.readSecret('TOTP secret')) : undefined;
    try {
      const made = await saved.create(
        o.id,
        {
          label: String(v.label),
          loginUrl: String(v.url),
          loginMethod: v.method ? String(v.method) : 'password',
          username: v.username ? String(v.username) : '',
          ...(v.origin ? { origins: (v.origin as string[]).map((x) => new URL(x).origin) } : {}),
          ...(password ? { password } : {}),
          ...(totpSecret ? { totpSecret } : {}),
          shareWith: shareOf(v),
        },
        'api',
      );
      io.out(
        `saved login '${made.label}' of ${o.name} for ${made.origins.join(', ')} (secrets: ${made.secrets.join(', ')}):`,
      );
      return io.out(made.id);
    } catch (err) {
      if (err instanceof AppError && err.status === 400) throw io.usage(issuesText(err));
      if (err instanceof TypeError) throw io.usage(`--origin: ${err.message}`);
      throw err;
    }
  }
  if (action === 'import') {
    if (rest.length !== 1) throw io.usage('credentials import takes one FILE');
    const file = path.resolve(rest[0]);
    const bytes = fs.readFileSync(file);
    const isZip = bytes.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'));
    const parsed = CredentialImportRequestSchema.safeParse({
      format: v.format,
      content: isZip ? bytes.toString('base64') : bytes.toString('utf8'),
      encoding: isZip ? 'base64' : 'utf8',
      dryRun: !v.yes,
      shareWith: shareOf(v),
    });
    if (!parsed.success) throw io.usage(`--format must be one of ${IMPORT_FORMATS.join(', ')}`);
    let result;
    try {
      result = await core.login.vault.importer.run(org().id, parsed.data);
    } catch (err) {
      if (err instanceof AppError && err.status === 400) throw io.usage(`${path.basename(file)}: ${err.message}`);
      throw err;
    }
    for (const item of result.items) {
      const why = item.reason ? `  (${item.reason})` : '';
      io.out(
        `${item.action.padEnd(6)}  ${item.at}  ${item.label}  ${item.origin ?? '-'}  ${item.username || '-'}${why}`,
      );
    }
    const counts = `${result.created} to create, ${result.merged} to merge, ${result.skipped} skipped`;
    return io.out(
      result.dryRun
        ? `preview: ${counts}. Nothing was saved; run again with --yes to import.`
        : `imported: ${counts.replace(/to (create|merge)/g, (_m, w: string) => `${w}d`)}.`,
    );
  }
  throw io.usage(`unknown command: credentials ${action ?? ''}`.trim());
}
