import type { AppConfig } from '../../../config/config.schema.js';
import type { OutboundPolicy } from '../../../net/outbound-policy.js';
import type { SecretStore } from '../../../secrets/secret-store.js';
import { ProviderError, type VideoProvider } from '../video-provider.js';
import { ComfyUiProvider } from './comfyui.provider.js';
import type { DownloadResultOptions } from './download-result.js';
import { FalProvider } from './fal.provider.js';
import type { ProviderHttpOptions } from './provider-http.js';
import { ReplicateProvider } from './replicate.provider.js';
import { PROVIDER_KEYS } from '../../../../../shared/provider.schema.js';

export type KeyedProvider = keyof typeof PROVIDER_KEYS;

export const isKeyedProvider = (name: string): name is KeyedProvider => Object.hasOwn(PROVIDER_KEYS, name);

/** The exact command that stores a provider's key (it reads the key from stdin). */
export const setKeyCommand = (name: KeyedProvider) => `npm run -s cli -- providers set-key ${name}`;

export interface ProviderRegistryDeps {
  config: AppConfig['providers'];
  secrets: SecretStore;
  /** The embedded renderer, registered as `local` (built elsewhere). */
  local?: VideoProvider;
  /** Limits for downloading results (defaults in download-result.ts). */
  download?: DownloadResultOptions;
  /** Retry and time-out settings of provider API calls (defaults in provider-http.ts). */
  http?: Partial<ProviderHttpOptions>;
  /** Where result URLs that fal.ai and Replicate hand back may lead (default: the default policy). */
  outbound?: OutboundPolicy;
}

export interface ProviderRegistry {
  /** The provider named by a template's `provider.name`; an unknown name is a ProviderError. */
  get(name: string): VideoProvider;
  names(): string[];
  /** Releases what providers hold between calls (ComfyUI sockets opened by submit). */
  dispose(): void;
}

/** Reads a provider's key when a job needs it (never at start), so setting a key takes effect at once. */
function keyReader(secrets: SecretStore, name: KeyedProvider): () => Promise<string> {
  const { account, label } = PROVIDER_KEYS[name];
  return async () => {
    let key: string | null;
    try {
      key = await secrets.get(account);
    } catch (err) {
      throw new ProviderError(`The ${label} API key could not be read: ${(err as Error).message}`);
    }
    if (!key) throw new ProviderError(`No ${label} API key is set. Set one with: ${setKeyCommand(name)}`);
    return key;
  };
}

/** Name -> provider, each built once on first use. */
export function createProviderRegistry(deps: ProviderRegistryDeps): ProviderRegistry {
  const { config } = deps;
  const hosted = (name: KeyedProvider, baseUrl: string) => ({
    baseUrl,
    pollIntervalMs: config.pollIntervalMs,
    key: keyReader(deps.secrets, name),
    keyHint: `Set a valid key with: ${setKeyCommand(name)}`,
    http: deps.http,
    // A result URL comes from the provider's answer, which a template's model and inputs (the API key's
    // choice) can steer: it obeys the outbound policy. The base URLs are the person's own config.
    download: { ...deps.download, outbound: deps.outbound },
  });
  let comfy: ComfyUiProvider | null = null;
  const factories: Record<string, () => VideoProvider> = {
    fal: () => new FalProvider(hosted('fal', config.fal.baseUrl)),
    replicate: () => new ReplicateProvider(hosted('replicate', config.replicate.baseUrl)),
    comfyui: () =>
      (comfy = new ComfyUiProvider({
        baseUrl: config.comfyui.baseUrl,
        pollIntervalMs: config.pollIntervalMs,
        http: deps.http,
        // ComfyUI's results are fetched from its configured base URL (/view), never from an address it
        // names: no outbound policy, like every call to a configured base URL.
        download: { ...deps.download, outbound: null },
      })),
  };
  if (deps.local) {
    const local = deps.local;
    factories.local = () => local;
  }
  const built = new Map<string, VideoProvider>();
  return {
    get(name) {
      const hit = built.get(name);
      if (hit) return hit;
      const make = Object.hasOwn(factories, name) ? factories[name] : undefined;
      if (!make) {
        throw new ProviderError(
          `The template names the video provider "${name}", which this installation does not have (it has: ${Object.keys(factories).join(', ')}).`,
        );
      }
      const provider = make();
      built.set(name, provider);
      return provider;
    },
    names: () => Object.keys(factories),
    dispose: () => comfy?.dispose(),
  };
}
