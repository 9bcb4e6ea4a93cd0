import { notFound } from '../../errors.js';
import type { FeatureRoutes } from '../../http/route.js';
import type { ContextProvider } from '../browser/lazy-browser-pool.js';
import type { Vault } from './vault.js';
import { PasskeyCreator } from './passkey-creator.js';
import { publicSavedLogin } from './saved-logins.service.js';

/** Saved logins of the caller's organization (docs/saved-logins.md): metadata in, metadata out, secrets write-only. */
export function credentialsRoutes({ vault, browsers }: { vault: Vault; browsers: ContextProvider }) {
  const saved = vault.savedLogins;
  const passkeys = new PasskeyCreator({ browsers, vault });
  return {
    listCredentials: ({ auth }) => ({ data: saved.list(auth.orgId) }),
    getCredential: ({ params, auth }) => publicSavedLogin(saved.get(auth.orgId, params.id)),
    createCredential: ({ body, auth }) => saved.create(auth.orgId, body, 'api'),
    // An API key: moving where the secrets are typed needs them in the request (saved-login-move.ts).
    updateCredential: ({ params, body, auth }) => saved.update(auth.orgId, params.id, body, 'api_key'),
    deleteCredential: async ({ params, auth }) => {
      if (!(await saved.delete(auth.orgId, params.id))) throw notFound(`No saved login "${params.id}"`);
    },
    credentialUses: ({ params, auth }) => ({ data: saved.uses(auth.orgId, params.id) }),
    importCredentials: ({ body, auth }) => vault.importer.run(auth.orgId, body),
    createPasskey: ({ params, body, auth }) => passkeys.create(auth, params.id, body.domain),
  } satisfies FeatureRoutes;
}
