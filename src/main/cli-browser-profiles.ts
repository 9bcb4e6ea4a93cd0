// `npm run -s cli -- browser-profiles …`: which organizations' API keys the person lets read their own browser
// profiles (docs/security.md#the-browser-profiles-are-the-persons). The CLI is the person at this machine: no API key can change this list.
import type { Core } from './core/create-core.js';
import { profileAccess, type ProfileReaders } from './core/login/profiles/index.js';

export const BROWSER_PROFILES_USAGE = `  browser-profiles orgs [--json]                         the organizations whose keys (with browser-profiles:read)
                                                         may read this machine's browser profiles; by default
                                                         only the install's first organization
  browser-profiles allow --org NAME                      let that organization's keys read them too
  browser-profiles deny --org NAME                       take it off the list (the first organization too)`;

type Values = Record<string, string | boolean | string[] | undefined>;

export interface BrowserProfilesIo {
  out(line: string): void;
  requireOrg(ref: string | undefined): { id: string; name: string };
  usage(message: string): Error;
}

function print(readers: ProfileReaders, v: Values, io: BrowserProfilesIo): void {
  if (v.json) return io.out(JSON.stringify({ orgs: readers.orgs, chosen: readers.chosen }, null, 2));
  for (const o of readers.orgs) io.out(`${o.id}  ${o.name}`);
  if (!readers.orgs.length) io.out('no organization: no API key may read the browser profiles');
  if (!readers.chosen) io.out('(the default: the first organization of this install)');
}

export function browserProfilesCommand(core: Core, action: string | undefined, v: Values, io: BrowserProfilesIo) {
  const access = profileAccess(core);
  if (action === 'orgs') return print(access.readers(), v, io);
  if (action === 'allow' || action === 'deny') {
    const org = io.requireOrg(v.org as string | undefined);
    const readers = action === 'allow' ? access.allow(org.id) : access.deny(org.id);
    io.out(
      action === 'allow'
        ? `keys of ${org.name} with browser-profiles:read may now read this machine's browser profiles`
        : `keys of ${org.name} may no longer read this machine's browser profiles`,
    );
    return print(readers, v, io);
  }
  throw io.usage(`unknown command: browser-profiles ${action ?? ''}`.trim());
}
