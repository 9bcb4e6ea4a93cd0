// The video studio's main-only channels: whether fal.ai / Replicate keys are stored (never the keys) and what the
// provider said of them, and storing one typed in the window (in the same secret-store accounts the CLI's
// `providers set-key` uses) and checking it. Plain Node.
import type { ProviderStatus } from '../../../shared/ipc-studio-channels.js';
import { PROVIDER_KEYS } from '../../../shared/provider.schema.js';
import fs from 'node:fs';
import { configFileOf, readConfigFile, writeConfigFile } from './desktop-config.js';
import type { DesktopHost } from './settings-channels.js';
import { fail } from './http-channel.js';
import type { LocalHandlers } from './ipc-dispatcher.js';

export type StudioChannelName =
  'providers:status' | 'providers:setKey' | 'providers:check' | 'providers:setComfyAddress';

export function studioChannels(host: DesktopHost): Pick<LocalHandlers, StudioChannelName> {
  const status = async (): Promise<ProviderStatus> => {
    const { core } = host.current();
    return {
      fal: await core.video.providerKeys.status('fal'),
      replicate: await core.video.providerKeys.status('replicate'),
      comfyui: { address: core.config.providers.comfyui.baseUrl },
    };
  };
  return {
    'providers:status': async () => ({ ok: true, value: await status() }),
    'providers:setKey': async ({ name, key }) => {
      const { account, label } = PROVIDER_KEYS[name];
      const { core } = host.current();
      try {
        await core.secrets.set(account, key);
      } catch (err) {
        // The store's own message, never the key.
        return fail('secrets_unavailable', `The ${label} key could not be stored: ${(err as Error).message}`);
      }
      // Stored is not connected: the provider is asked at once, so the window can say which it is.
      await core.video.providerKeys.check(name);
      return { ok: true, value: await status() };
    },
    'providers:check': async ({ name }) => {
      await host.current().core.video.providerKeys.check(name);
      return { ok: true, value: await status() };
    },
    'providers:setComfyAddress': async ({ address }) => {
      const running = host.current();
      const url = address.replace(/\/+$/, '');
      if (running.core.config.providers.comfyui.baseUrl === url) return { ok: true, value: await status() };
      const file = configFileOf(running.core.config.dataDir);
      let before: Record<string, unknown>;
      try {
        before = readConfigFile(file) as Record<string, unknown>;
      } catch (err) {
        return fail('config_unreadable', (err as Error).message);
      }
      const providers = (before.providers ?? {}) as Record<string, Record<string, unknown>>;
      const next = { ...before, providers: { ...providers, comfyui: { ...providers.comfyui, baseUrl: url } } };
      const previousText = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
      try {
        await host.restart({
          apply: () => writeConfigFile(file, next as Parameters<typeof writeConfigFile>[1]),
          undo: () => (previousText === null ? fs.rmSync(file, { force: true }) : fs.writeFileSync(file, previousText)),
        });
      } catch (err) {
        return fail(
          'restart_failed',
          `The core could not start with this address (${(err as Error).message}); the previous settings were restored.`,
        );
      }
      return { ok: true, value: await status() };
    },
  };
}
