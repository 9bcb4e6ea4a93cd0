// The Linux autostart file on disk (its path and text come from desktop-entry.ts). Written whole through a file beside
// it and a rename, so a session starting at that moment reads the old entry or the new one, never half of one.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

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
  // Ends in .tmp, not .desktop: a session starting meanwhile never runs a temp file left by a crash.
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    // 0644 like the entries desktops write; 'wx': never through a file someone put at the temp name.
    fs.writeFileSync(temp, text, { mode: 0o644, flag: 'wx' });
    fs.renameSync(temp, file);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** Turned off: the file goes (a system-wide entry of the same name would show through; the app installs none). */
export function removeAutostartFile(file: string): void {
  fs.rmSync(file, { force: true });
}
