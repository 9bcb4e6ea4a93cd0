// Finds the person's browser profiles under the configured home directories: every profile of Chrome, Chromium,
// Edge and Brave (Local State's profile.info_cache names them; on Linux their Snap and Flatpak builds too) and of
// Firefox (profiles.ini).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserKind } from '../../../../shared/browser-profiles.schema.js';
import { CHROMIUM_FAMILY, FIREFOX_DIRS, type ChromiumFamily, type Platform } from './browser-kinds.js';

export interface FoundProfile {
  id: string;
  browser: BrowserKind;
  name: string;
  /** The profile's directory. */
  path: string;
  /** The browser's user-data-dir (Chromium: holds Local State) or Firefox's profiles.ini directory. */
  userDataDir: string;
  /** The cookie database. */
  cookiesFile: string;
  family?: ChromiumFamily;
}

export function profileId(browser: BrowserKind, dir: string): string {
  return `bp_${crypto
    .createHash('sha256')
    .update(`${browser}\0${path.resolve(dir)}`)
    .digest('hex')
    .slice(0, 20)}`;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

function listDirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** Newer Chromium keeps cookies under Network/ (Windows first), older ones at the profile's top. */
function chromiumCookiesFile(profileDir: string): string | null {
  for (const rel of [path.join('Network', 'Cookies'), 'Cookies']) {
    const file = path.join(profileDir, rel);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/**
 * The name a person knows a Chromium profile by. A profile nobody named carries the browser's placeholder ("Your
 * Chromium", "Your Chrome"), which reads as a second browser name: it is the Default profile, or its folder's name.
 */
export function chromiumProfileName(dir: string, given: string | undefined): string {
  const name = given?.trim() ?? '';
  if (name && !/^Your (Google )?(Chrome|Chromium|Microsoft Edge|Edge|Brave)\b/i.test(name)) return name;
  return dir === 'Default' ? 'Default profile' : dir;
}

function chromiumProfiles(family: ChromiumFamily, userDataDir: string): FoundProfile[] {
  const state = readJson(path.join(userDataDir, 'Local State')) as {
    profile?: { info_cache?: Record<string, { name?: string }> };
  } | null;
  const names = state?.profile?.info_cache ?? {};
  const dirs = new Set([
    ...Object.keys(names),
    ...listDirs(userDataDir).filter((d) => /^(Default|Profile \d+)$/.test(d)),
  ]);
  const found: FoundProfile[] = [];
  for (const dir of [...dirs].sort()) {
    const profileDir = path.join(userDataDir, dir);
    const cookiesFile = chromiumCookiesFile(profileDir);
    if (!cookiesFile) continue; // never opened, or not a profile
    found.push({
      id: profileId(family.kind, profileDir),
      browser: family.kind,
      name: chromiumProfileName(dir, names[dir]?.name),
      path: profileDir,
      userDataDir,
      cookiesFile,
      family,
    });
  }
  return found;
}

/** profiles.ini: [ProfileN] sections with Name, Path and IsRelative. */
function firefoxProfiles(root: string): FoundProfile[] {
  let ini: string;
  try {
    ini = fs.readFileSync(path.join(root, 'profiles.ini'), 'utf8');
  } catch {
    return [];
  }
  const found: FoundProfile[] = [];
  for (const section of ini.split(/^\[/m).filter((s) => /^Profile\d+\]/.test(s))) {
    const field = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(section)?.[1]?.trim();
    const rel = field('Path');
    if (!rel) continue;
    const profileDir = field('IsRelative') === '0' ? rel : path.join(root, rel);
    const cookiesFile = path.join(profileDir, 'cookies.sqlite');
    if (!fs.existsSync(cookiesFile)) continue;
    found.push({
      id: profileId('firefox', profileDir),
      browser: 'firefox',
      name: field('Name') ?? path.basename(profileDir),
      path: profileDir,
      userDataDir: root,
      cookiesFile,
    });
  }
  return found;
}

/** Every profile under the home directories `roots`, for the OS `platform`. */
export function discoverProfiles(roots: readonly string[], platform: Platform): FoundProfile[] {
  const found: FoundProfile[] = [];
  for (const home of roots) {
    for (const family of CHROMIUM_FAMILY) {
      const dirs = [family.dirs[platform], ...(platform === 'linux' ? family.linuxPackaged : [])];
      for (const dir of dirs) found.push(...chromiumProfiles(family, path.join(home, dir)));
    }
    for (const dir of FIREFOX_DIRS[platform]) found.push(...firefoxProfiles(path.join(home, dir)));
  }
  const seen = new Set<string>();
  return found.filter((p) => !seen.has(p.id) && seen.add(p.id));
}
