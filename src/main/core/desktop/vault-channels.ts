// Saved logins, what only the person at this machine may do (no HTTP route on purpose: an API key never reads a
// secret back, nor moves one without holding it): Reveal, Copy to the OS clipboard, Test now as the person, and a
// move of where the secrets are typed that the person confirmed. Plain Node; the clipboard is the Electron side's
// (passed in).
import path from 'node:path';
import type { IpcResult } from '../../../shared/errors.js';
import type { RevealableSecretSchema } from '../../../shared/ipc-credentials-channels.js';
import { LOGIN_FAILURE_STATUS } from '../../../shared/errors.js';
import { LoginRequestSchema } from '../../../shared/login.schema.js';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import { renderError, toAppError } from '../http/plugins/errors.js';
import { appErrorResult } from './admin-channels.js';
import type { HostedCore } from './core-host.js';
import type { LocalHandlers } from './ipc-dispatcher.js';
import { writeAtomic, type DesktopFileOs } from './results-channels.js';

type SavedLogins = HostedCore['core']['login']['vault']['savedLogins'];
type StoredSavedLogin = ReturnType<SavedLogins['get']>;
type StoredPasskey = NonNullable<Awaited<ReturnType<SavedLogins['readSecrets']>>['passkeys']>[number];

/**
 * The export file (docs/own-browsers-and-passkeys.md#export): each credential with the fields of CDP's WebAuthn.Credential (credentialId
 * and userHandle base64url here, privateKey a base64 PKCS#8 P-256 key), so another virtual authenticator can load it.
 */
function passkeyExport(saved: StoredSavedLogin, passkeys: readonly StoredPasskey[]) {
  return {
    format: 'agent-studio-passkeys',
    version: 1,
    exported_at: new Date().toISOString(),
    saved_login: { label: saved.label, login_url: saved.loginUrl, username: saved.username },
    passkeys: passkeys.map((p) => ({
      rpId: p.rpId,
      credentialId: p.credentialId,
      privateKey: p.privateKey,
      userHandle: p.userHandle ?? null,
      signCount: p.signCount,
      isResidentKey: true,
      algorithm: 'ES256',
      createdAt: new Date(p.createdAt).toISOString(),
    })),
  };
}

export type VaultChannelName =
  | 'credentials:reveal'
  | 'credentials:copySecret'
  | 'credentials:exportPasskeys'
  | 'credentials:test'
  | 'credentials:updateConfirmed';

type RevealableSecret = z.infer<typeof RevealableSecretSchema>;

export function vaultChannels(opts: {
  host: { current(): HostedCore };
  /** Puts a secret on the OS clipboard (and takes it off again after a while). */
  copySecret: (text: string) => void | Promise<void>;
  /** The save dialog (Export passkeys): the file the person picks, or null. */
  chooseSavePath: DesktopFileOs['chooseSavePath'];
}): Pick<LocalHandlers, VaultChannelName> {
  const core = () => opts.host.current().core;
  const orgId = () => opts.host.current().desktop.orgId;

  /** The value of one secret of the desktop organization's saved login, or a not_found failure. */
  const secretOf = async (id: string, secret: RevealableSecret): Promise<IpcResult<string>> => {
    try {
      const vault = core().login.vault.savedLogins;
      const saved = vault.get(orgId(), id);
      const secrets = await vault.readSecrets(saved);
      const value = typeof secret === 'string' ? secrets[secret] : secrets.additionalFields?.[secret.additionalField];
      if (value === undefined)
        return {
          ok: false,
          error: { code: 'not_found', message: `The saved login "${saved.label}" has no such secret.` },
        };
      const what = typeof secret === 'string' ? secret : 'additionalField';
      core().log.info({ credentialId: saved.id, secret: what }, 'saved login secret shown to the person');
      return { ok: true, value };
    } catch (err) {
      return appErrorResult(err);
    }
  };

  return {
    'credentials:reveal': async ({ id, secret }) => {
      const value = await secretOf(id, secret);
      return value.ok ? { ok: true, value: { value: value.value } } : value;
    },
    'credentials:copySecret': async ({ id, secret }) => {
      const value = await secretOf(id, secret);
      if (!value.ok) return value;
      await opts.copySecret(value.value);
      return { ok: true, value: { copied: true } };
    },
    'credentials:exportPasskeys': async ({ id }) => {
      try {
        const vault = core().login.vault.savedLogins;
        const saved = vault.get(orgId(), id);
        const { passkeys = [] } = await vault.readSecrets(saved);
        if (!passkeys.length)
          return {
            ok: false,
            error: { code: 'not_found', message: `The saved login "${saved.label}" has no passkey.` },
          };
        const file = await opts.chooseSavePath({
          title: 'Export passkeys',
          defaultName: `${saved.label.replace(/[^\w.-]+/g, '-')}-passkeys.json`,
          extensions: ['json'],
        });
        if (!file) return { ok: true, value: { saved: false, name: null, count: passkeys.length } };
        await writeAtomic(file, `${JSON.stringify(passkeyExport(saved, passkeys), null, 2)}\n`);
        core().log.info(
          { credentialId: saved.id, count: passkeys.length },
          'saved login passkeys exported by the person',
        );
        return { ok: true, value: { saved: true, name: path.basename(file), count: passkeys.length } };
      } catch (err) {
        return appErrorResult(err);
      }
    },
    'credentials:updateConfirmed': async ({ params, body }) => {
      try {
        const saved = await core().login.vault.savedLogins.update(orgId(), params.id, body, 'person');
        return { ok: true, value: saved };
      } catch (err) {
        // As credentials:update answers a refusal (the route's login-service code), so the form reads both alike.
        const failure = toAppError(err);
        if (failure.status >= 500)
          core().log.error({ err: (err as Error).message }, 'desktop: saved login not changed');
        const code = String(renderError('login', failure).error);
        return {
          ok: false,
          error: { code, message: failure.message, details: { status: failure.status, ...failure.details } },
        };
      }
    },
    'credentials:test': async ({ id, loginId }) => {
      const started = Date.now();
      try {
        const body = LoginRequestSchema.parse({ credential: id, useCache: false });
        const out = await core().login.lifecycle.sessions.login({ orgId: orgId(), keyId: null }, body, {
          loginId,
          endpoint: 'desktop_test',
        });
        return {
          ok: true,
          value: { ok: true, sessionId: out.sessionId, cookies: out.state.cookies.length, ms: Date.now() - started },
        };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const login = Object.values(LOGIN_FAILURE_STATUS).find((f) => f.code.toLowerCase() === err.code);
        const steps = Array.isArray(err.details?.steps) ? (err.details.steps as string[]) : [];
        return {
          ok: true,
          value: {
            ok: false,
            code: login?.code ?? err.code.toUpperCase(),
            message: err.message,
            steps,
            ms: Date.now() - started,
          },
        };
      }
    },
  };
}
