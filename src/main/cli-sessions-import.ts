// `npm run -s cli -- sessions import …`: sessions from the person's own browsers, read straight from this machine's
// profiles through the core (docs/own-browsers-and-passkeys.md#sessions-from-your-own-browsers). Cookie values are printed only with --json,
// and only to stdout: the person asked for them.
import { SessionImportRequestSchema } from '../shared/browser-profiles.schema.js';
import type { Core } from './core/create-core.js';
import { zodMessage } from './core/http/route.js';
import { browserProfiles } from './core/login/profiles/index.js';

export const SESSIONS_IMPORT_USAGE = `  sessions import --list [--json]                       the browser profiles on this machine (Chrome, Chromium,
                                                         Edge, Brave, Firefox) and the sites they hold cookies for
  sessions import --profile ID --site SITE [--site SITE …] [--credential REF] [--org NAME] [--json]
                                                         import the sites' sessions from that profile into the
                                                         session cache, each checked on its site (--json prints
                                                         the storageState too); --credential files them under
                                                         that saved login, so later logins with it use them`;

type Values = Record<string, string | boolean | string[] | undefined>;

export interface SessionsImportIo {
  out(line: string): void;
  orgOrOnly(ref: string | undefined): { id: string; name: string };
  usage(message: string): Error;
}

export async function sessionsImportCommand(core: Core, v: Values, io: SessionsImportIo): Promise<void> {
  const profiles = browserProfiles(core);
  if (v.list) {
    const list = profiles.list();
    if (v.json) return io.out(JSON.stringify(list, null, 2));
    for (const p of list) {
      const sites = p.error
        ? `(${p.error})`
        : `${p.origins.length} sites${p.origins.length ? `: ${p.origins.join(' ')}` : ''}`;
      io.out(`${p.id}  ${p.browser}  "${p.name}"  ${p.path}  ${sites}`);
    }
    if (!list.length) io.out('no browser profiles found');
    return;
  }
  if (!v.profile || !v.site)
    throw io.usage(
      'sessions import needs --list, or --profile ID and --site SITE (a URL or a host such as github.com)',
    );
  const parsed = SessionImportRequestSchema.safeParse({
    profile: v.profile,
    sites: v.site,
    ...(v.credential ? { credential: v.credential } : {}),
  });
  if (!parsed.success) throw io.usage(zodMessage(parsed.error).replace(/\bsites(\.\d+)?/g, '--site'));
  const org = io.orgOrOnly(v.org as string | undefined);
  const result = await profiles.import({ orgId: org.id, keyId: null, via: 'cli' }, parsed.data);
  if (v.json) return io.out(JSON.stringify(result, null, 2));
  for (const s of result.sessions) {
    const state = s.valid ? 'valid' : s.status;
    const kept = s.session_id ?? '(not kept: the check found it signed out)';
    io.out(`${s.origin}  ${state}  ${kept}  ${s.state.cookies.length} cookies`);
    if (!s.valid) io.out(`  the check: ${s.evidence.join('; ')}`);
  }
}
