import type { FeatureRoutes } from '../../http/route.js';
import { browserProfiles, type ProfilesCore } from './index.js';

/** The person's own browser profiles (README "Sessions from your own browsers"): thin, the service owns the rest. */
export function browserProfilesRoutes(core: ProfilesCore) {
  return {
    listBrowserProfiles: () => ({ data: browserProfiles(core).list() }),
    importSessions: ({ body, auth }) =>
      browserProfiles(core).import({ orgId: auth.orgId, keyId: auth.keyId, via: 'api' }, body),
  } satisfies FeatureRoutes;
}
