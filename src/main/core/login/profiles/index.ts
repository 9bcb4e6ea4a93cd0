// Sessions from the person's own browsers (docs/own-browsers-and-passkeys.md#sessions-from-your-own-browsers). One service per core, made on
// first use by the routes, the MCP tools and the CLI.
import type { BaseCore } from '../../base-core.js';
import type { SessionLifecycle } from '../lifecycle/session-lifecycle.js';
import type { SessionCache } from '../sessions/session-cache.js';
import type { Vault } from '../vault/vault.js';
import { BrowserProfiles } from './browser-profiles.service.js';
import { ProfileAccess } from '../../tenancy/profile-readers.js';
import { ProfileImportsRepo } from './profile-imports.repo.js';

export { BrowserProfiles, type ImportCaller } from './browser-profiles.service.js';
export type { ImportVia } from './profile-imports.repo.js';
export { ProfileAccess, type ProfileReaders } from '../../tenancy/profile-readers.js';

/**
 * What the service uses of the core: the session cache and the session check of the login feature; the organizations
 * (which of them the person lets read the profiles).
 */
export type ProfilesCore = Pick<BaseCore, 'config' | 'db' | 'log' | 'orgs'> & {
  login: {
    cache: SessionCache;
    lifecycle: { sessions: Pick<SessionLifecycle, 'validate'> };
    vault: Pick<Vault, 'usable' | 'loginRequest'>;
  };
};

const made = new WeakMap<ProfilesCore, { service: BrowserProfiles; imports: ProfileImportsRepo }>();

function create(core: ProfilesCore) {
  const imports = new ProfileImportsRepo(core.db);
  const service = new BrowserProfiles({
    roots: core.config.browserProfiles.roots,
    cache: core.login.cache,
    sessions: core.login.lifecycle.sessions,
    imports,
    vault: core.login.vault,
    log: core.log.child({ component: 'browser-profiles' }),
  });
  return { service, imports };
}

/** The core's browser-profile service. */
export function browserProfiles(core: ProfilesCore): BrowserProfiles {
  let entry = made.get(core);
  if (!entry) made.set(core, (entry = create(core)));
  return entry.service;
}

/** Which organizations' keys the person lets read the profiles (checked by the HTTP routes, so by MCP too). */
export function profileAccess(core: ProfilesCore): ProfileAccess {
  return new ProfileAccess(core.db, core.orgs);
}

/** The core's import use log. */
export function profileImports(core: ProfilesCore): ProfileImportsRepo {
  browserProfiles(core);
  return made.get(core)!.imports;
}
