// The video studio's part of the IPC contract (spread into IPC_CONTRACT in ipc-contract.ts): which AI video
// providers this computer can use, and connecting one from the window (a fal.ai or Replicate key into the
// secret store, never config.json or the page after it was typed). The quote routes are added here too.
import { z } from 'zod';
import type { Channel } from './ipc-channel.js';

/** What the provider said of the stored key when the app last asked it (provider-key-check.ts). */
export const ProviderKeyCheckSchema = z.object({
  /** connected: the provider accepted the key; refused: it said the key is not valid; unreachable: no answer about it. */
  outcome: z.enum(['connected', 'refused', 'unreachable']),
  /** The provider's answer in words (never the key). */
  message: z.string(),
  checkedAt: z.number(),
});
export type ProviderKeyCheck = z.infer<typeof ProviderKeyCheckSchema>;

export const HostedProviderStatusSchema = z.object({
  stored: z.boolean(),
  /** The last check of the key stored now; null when it was not checked since it was stored or the app started. */
  check: ProviderKeyCheckSchema.nullable(),
});
export type HostedProviderStatus = z.infer<typeof HostedProviderStatusSchema>;

export const ProviderStatusSchema = z.object({
  fal: HostedProviderStatusSchema,
  replicate: HostedProviderStatusSchema,
  /** ComfyUI needs no key: the address the core sends workflows to (config providers.comfyui.baseUrl). */
  comfyui: z.object({ address: z.string() }),
});
export type ProviderStatus = z.infer<typeof ProviderStatusSchema>;

export const STUDIO_CHANNELS = {
  /** POST /api/templates/:id/quote: what generate with the same body would charge (nothing is charged). */
  'templates:quote': { kind: 'http', route: 'quoteTemplate' },
  /** POST /api/generations/quote: the same for Create Generation. */
  'generations:quote': { kind: 'http', route: 'quoteGeneration' },
  /** POST /api/batches/:id/cancel: every still-generating video of a batch, refunded. */
  'batches:cancel': { kind: 'http', route: 'cancelBatch' },
  /** Whether a fal.ai / Replicate key is stored (never the key), and the ComfyUI address. */
  'providers:status': { kind: 'local', args: z.undefined(), result: ProviderStatusSchema },
  /** Stores a provider key in the secret store (OS keychain or the encrypted secrets file), then checks it. */
  'providers:setKey': {
    kind: 'local',
    args: z
      .object({
        name: z.enum(['fal', 'replicate']),
        key: z
          .string()
          .trim()
          .min(1, 'the key is required')
          .max(4096)
          .regex(/^\S+$/, 'the key is one word without spaces'),
      })
      .strict(),
    result: ProviderStatusSchema,
  },
  /** Asks fal.ai / Replicate whether the stored key works (one cheap authenticated call, no paid work). */
  'providers:check': {
    kind: 'local',
    args: z.object({ name: z.enum(['fal', 'replicate']) }).strict(),
    result: ProviderStatusSchema,
  },
  /** Sets the ComfyUI address in config.json and restarts the core with it (restored when it cannot start). */
  'providers:setComfyAddress': {
    kind: 'local',
    args: z
      .object({
        address: z
          .string()
          .trim()
          .max(2048)
          .regex(
            /^https?:\/\/[^\s/]+(\/\S*)?$/i,
            'the address is an http:// or https:// URL, e.g. http://127.0.0.1:8188',
          ),
      })
      .strict(),
    result: ProviderStatusSchema,
  },
} as const satisfies Record<string, Channel>;
