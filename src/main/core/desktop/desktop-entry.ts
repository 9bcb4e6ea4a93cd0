// The XDG autostart entry that starts the app at login on Linux: where it goes (XDG Base Directory spec), what it says
// (Desktop Entry spec 1.5: the Exec key's quoting, the string escapes) and how a file found there is read back
// (Desktop Application Autostart spec: Hidden, and GNOME's X-GNOME-Autostart-enabled, which KDE and Xfce honour too).
// Pure: autostart-file.ts reads and writes the file.
import path from 'node:path';
import { BACKGROUND_ARG } from './autostart.js';

export const AUTOSTART_FILE_NAME = 'agent-studio.desktop';

/**
 * `$XDG_CONFIG_HOME/autostart/agent-studio.desktop`, or under `~/.config` when XDG_CONFIG_HOME is unset, empty or
 * relative (the Base Directory spec says a relative path there is invalid and to be ignored).
 */
export function autostartFilePath(at: { env: NodeJS.ProcessEnv; home: string }): string {
  const configured = at.env.XDG_CONFIG_HOME;
  const configHome = configured && path.isAbsolute(configured) ? configured : path.join(at.home, '.config');
  return path.join(configHome, 'autostart', AUTOSTART_FILE_NAME);
}

/**
 * One argument of an Exec line. Always quoted (the path may hold spaces or other reserved characters); inside the
 * quotes `"`, `` ` ``, `$` and `\` take a backslash; a literal `%` is `%%` (the spec undoes the quoting before it
 * expands field codes, so `%%` is read inside quotes too). GLib (GNOME) looks the program up before it reads `%%`, so
 * it refuses a path holding `%`; there is no other spelling that both it and the spec read as that path.
 */
export function quoteExecArgument(arg: string): string {
  return `"${arg.replaceAll('%', '%%').replace(/["`$\\]/g, '\\$&')}"`;
}

/** The Exec line (before the string escapes) that starts `executable` in the background. */
export const execLine = (executable: string): string => `${quoteExecArgument(executable)} ${BACKGROUND_ARG}`;

/**
 * A value of type string as written in the file. The spec applies these escapes before the Exec quoting, so the
 * quoting's own backslashes are doubled: a `$` in the path becomes `\\$`, a backslash `\\\\`.
 */
function escapeString(value: string): string {
  return value.replace(/[\\\n\t\r]/g, (c) => ({ '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' })[c] ?? c);
}

function unescapeString(value: string): string {
  // An escape the spec does not define is kept as written (GLib refuses the file instead; this only reads it back).
  return value.replace(/\\([\\snrt])/g, (_m, c: string) => ({ '\\': '\\', s: ' ', n: '\n', r: '\r', t: '\t' })[c]!);
}

/** The whole file: a Type=Application entry that starts the app in the background at login. */
export function autostartDesktopEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.5',
    'Name=Agent Studio',
    'Comment=Starts the local API for AI agents in the background when you log in',
    `Exec=${escapeString(execLine(executable))}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** The keys of the file's [Desktop Entry] group, values unescaped; null when it has no such group. */
export function parseDesktopEntry(text: string): Map<string, string> | null {
  let inEntry = false;
  let found = false;
  const keys = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      inEntry = line === '[Desktop Entry]';
      found ||= inEntry;
      continue;
    }
    const eq = line.indexOf('=');
    if (!inEntry || eq < 1) continue;
    const key = line.slice(0, eq).trim();
    // The first of a key written twice counts, as in GLib.
    if (!keys.has(key)) keys.set(key, unescapeString(line.slice(eq + 1).trim()));
  }
  return found ? keys : null;
}

const isFalse = (value: string | undefined) => value === 'false' || value === '0';
const isTrue = (value: string | undefined) => value === 'true' || value === '1';

/**
 * Whether the file found at the autostart path starts the app at login, and what to tell the person about it. `exec`
 * is the Exec line this copy would write (null when it cannot start at login: then any working entry is on).
 */
export function autostartEntryState(text: string | null, exec: string | null): { on: boolean; note: string | null } {
  if (text === null) return { on: false, note: null };
  const entry = parseDesktopEntry(text);
  const found = entry?.get('Exec');
  if (!entry || entry.get('Type') !== 'Application' || !found)
    return {
      on: false,
      note: 'The file there is not a desktop entry that starts a program, so nothing starts. Turning this on rewrites it.',
    };
  if (isTrue(entry.get('Hidden')))
    return { on: false, note: 'Turned off in the file (Hidden=true). Turning this on here rewrites it.' };
  if (isFalse(entry.get('X-GNOME-Autostart-enabled')))
    return {
      on: false,
      note: "Turned off in the file (X-GNOME-Autostart-enabled=false), as your desktop's startup settings do. Turning this on here rewrites it.",
    };
  if (exec !== null && found !== exec)
    return {
      on: true,
      note: `The file starts ${found}, not this copy in the background (was the app moved?). Turn this off and on again to point it here.`,
    };
  return { on: true, note: null };
}
