import type { FeatureRoutes } from '../../http/route.js';
import { browserProfiles, profileAccess, type ProfilesCore } from './index.js';

/**
 * The person's own browser profiles (docs/own-browsers-and-passkeys.md#sessions-from-your-own-browsers): thin, the service owns the rest.
 * Every key (MCP tools call these routes too) is answered only for an organization the person allowed
 * (docs/security.md#the-browser-profiles-are-the-persons); the desktop window and the CLI are the person, and call the service directly.
 */
export function browserProfilesRoutes(core: ProfilesCore) {
  return {
    listBrowserProfiles: ({ auth }) => {
      profileAccess(core).require(auth.orgId);
      return { data: browserProfiles(core).list() };
    },
    importSessions: ({ body, auth }) => {
      profileAccess(core).require(auth.orgId);
      return browserProfiles(core).import({ orgId: auth.orgId, keyId: auth.keyId, via: 'api' }, body);
    },
  } satisfies FeatureRoutes;
}
