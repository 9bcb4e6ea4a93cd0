// The Linux autostart file on disk (its path and text come from desktop-entry.ts). Written whole (replace-file.ts), so
// a session starting at that moment reads the old entry or the new one, never half of one.
import fs from 'node:fs';
import path from 'node:path';
import { replaceFileSync } from '../fs/replace-file.js';

/** The file's text, or null when there is none (nor can be: a file stands where a folder of its path should). */
export function readAutostartFile(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

export function writeAutostartFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // replace-file.ts: a temp file beside it ending in .tmp, not .desktop (a session starting meanwhile never runs one a
  // crash left), created exclusively, fsynced, renamed over; 0644 like the entries desktops write.
  replaceFileSync(file, text, { mode: 0o644 });
}

/** Turned off: the file goes (a system-wide entry of the same name would show through; the app installs none). */
export function removeAutostartFile(file: string): void {
  fs.rmSync(file, { force: true });
}
