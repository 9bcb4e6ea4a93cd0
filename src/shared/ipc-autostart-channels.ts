// Settings → Start-up's part of the IPC contract (spread into IPC_CONTRACT in ipc-contract.ts): whether the app starts,
// in the background, when the person logs in to their computer. Answered by the main process from what the OS itself
// says (the macOS login item, the Windows Run key, the XDG autostart file), never from a remembered choice.
import { z } from 'zod';

const noArgs = z.undefined();

/** How the platform starts an app at login: a macOS login item, the Windows Run key, an XDG autostart entry. */
export const AUTOSTART_MECHANISMS = ['login-item', 'run-key', 'xdg-autostart'] as const;

export const AutostartStateSchema = z.object({
  /** The OS starts the app at the person's next login (read back from the OS). */
  on: z.boolean(),
  mechanism: z.enum(AUTOSTART_MECHANISMS),
  /** Where the person sees or undoes it outside the app (a System Settings pane, Task Manager, the file's path). */
  where: z.string(),
  /** Why this copy of the app cannot change it (it runs from source), or null. */
  unavailable: z.string().nullable(),
  /** What the OS says beyond on and off (waiting for approval, turned off in Task Manager or in the file), or null. */
  note: z.string().nullable(),
});
export type AutostartState = z.infer<typeof AutostartStateSchema>;

export const AUTOSTART_CHANNELS = {
  'autostart:get': { kind: 'local', args: noArgs, result: AutostartStateSchema },
  /** Turns the start at login on or off; the answer is the state read back from the OS afterwards. */
  'autostart:set': { kind: 'local', args: z.object({ on: z.boolean() }).strict(), result: AutostartStateSchema },
} as const;
