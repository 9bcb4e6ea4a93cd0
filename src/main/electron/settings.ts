import Store from 'electron-store';
import { z } from 'zod';
import { ThemeSchema } from '../../shared/desktop-admin.schema.js';

/**
 * What the desktop app keeps between launches. The core's own settings (port, browser, ...) are the
 * headless ones: `<dataDir>/config.json` and AGENT_STUDIO_* environment variables, so both run alike.
 */
export const SettingsSchema = z.object({
  secretsBackend: z.enum(['keychain', 'file']).default('keychain'),
  /** Size and position in normal (not maximized) state, and whether the window was maximized. */
  window: z
    .object({
      width: z.number().int().min(640).max(10_000),
      height: z.number().int().min(480).max(10_000),
      x: z.number().int().optional(),
      y: z.number().int().optional(),
      maximized: z.boolean().optional(),
    })
    .optional(),
  /** Closing the window leaves the app (and the agents' API) running in the tray / menu bar. */
  keepRunningInTray: z.boolean().default(true),
  /** The tools the last missing-tools notice named, so the same notice is shown once, not on every start. */
  missingToolsNoticed: z.array(z.string()).default([]),
  /** Light, dark, or as the OS is set (Settings > Appearance). */
  theme: ThemeSchema.default('system'),
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
