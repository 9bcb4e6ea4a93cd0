import Store from 'electron-store';
import { z } from 'zod';

/** What the desktop app keeps between launches (the core's own config lives in `<dataDir>/config.json`). */
export const SettingsSchema = z.object({
  /** Port of the local API for agents. */
  serverPort: z.number().int().min(0).max(65535).default(4780),
  secretsBackend: z.enum(['keychain', 'file']).default('keychain'),
  window: z
    .object({
      width: z.number().int().min(640).max(10_000),
      height: z.number().int().min(480).max(10_000),
      x: z.number().int().optional(),
      y: z.number().int().optional(),
    })
    .optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

export interface SettingsStore {
  get(): Settings;
  update(patch: Partial<Settings>): Settings;
}

/** electron-store file `<userData>/settings.json`, read through zod: a hand-edited bad value falls back to its default. */
export function openSettings(cwd: string): SettingsStore {
  const store = new Store<Record<string, unknown>>({ name: 'settings', cwd, clearInvalidConfig: true });
  const read = (): Settings => {
    const raw = store.store;
    const parsed = SettingsSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    // Keep the valid keys, drop the broken ones.
    const fixed: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) {
      const field = SettingsSchema.shape[k as keyof Settings];
      if (field && field.safeParse(v).success) fixed[k] = v;
    }
    return SettingsSchema.parse(fixed);
  };
  return {
    get: read,
    update(patch) {
      const next = SettingsSchema.parse({ ...read(), ...patch });
      store.store = next as Record<string, unknown>;
      return next;
    },
  };
}
