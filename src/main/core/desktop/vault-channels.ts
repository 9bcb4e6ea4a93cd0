// Saved logins, what only the person at this machine may do (no HTTP route on purpose: an API key never reads a
// secret back): Reveal, Copy to the OS clipboard, and Test now as the person. Plain Node; the clipboard is the
// Electron side's (passed in).
import type { IpcResult } from '../../../shared/errors.js';
import type { RevealableSecretSchema } from '../../../shared/ipc-credentials-channels.js';
import { LOGIN_FAILURE_STATUS } from '../../../shared/errors.js';
import { LoginRequestSchema } from '../../../shared/login.schema.js';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import { appErrorResult } from './admin-channels.js';
import type { HostedCore } from './core-host.js';
import type { LocalHandlers } from './ipc-dispatcher.js';

export type VaultChannelName = 'credentials:reveal' | 'credentials:copySecret' | 'credentials:test';

type RevealableSecret = z.infer<typeof RevealableSecretSchema>;

export function vaultChannels(opts: {
  host: { current(): HostedCore };
  /** Puts a secret on the OS clipboard (and takes it off again after a while). */
  copySecret: (text: string) => void;
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
      opts.copySecret(value.value);
      return { ok: true, value: { copied: true } };
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
