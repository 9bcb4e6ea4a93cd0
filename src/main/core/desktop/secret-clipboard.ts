// Copy of a saved login's secret to the OS clipboard, taken off again after a while (as password managers do). Plain
// Node: the Electron side gives its clipboard (electron/ipc/local-channels.ts); tests give a stand-in and run the
// timer themselves.

import { SECRET_ON_CLIPBOARD_MS } from '../../../shared/secret-clipboard.js';

export { SECRET_ON_CLIPBOARD_MS };

/** What is used of the OS clipboard (Electron's `clipboard`). */
export interface SecretClipboard {
  writeText(text: string): Promise<void>;
  readText(): Promise<string>;
  clear(): void;
}

/** Runs `fn` once after `ms`; the default is an unref'd timer (a pending clear never keeps the app running). */
export type Schedule = (fn: () => Promise<void>, ms: number) => void;

const unrefTimer: Schedule = (fn, ms) => {
  setTimeout(() => void fn(), ms).unref();
};

/**
 * `copySecret(text)`: writes the secret, and after `delayMs` clears the clipboard only if it still holds that secret
 * (something the person copied since is theirs and stays). Resolves once the write is done (rejects when the OS
 * refuses it), so "copied" is only said after it.
 */
export function secretCopier(
  clipboard: SecretClipboard,
  opts: { delayMs?: number; schedule?: Schedule } = {},
): (text: string) => Promise<void> {
  const schedule = opts.schedule ?? unrefTimer;
  return async (text) => {
    await clipboard.writeText(text);
    schedule(async () => {
      // Reading back can fail (another program holds the clipboard): the secret then stays until overwritten.
      const now = await clipboard.readText().catch(() => undefined);
      if (now === text) clipboard.clear();
    }, opts.delayMs ?? SECRET_ON_CLIPBOARD_MS);
  };
}
