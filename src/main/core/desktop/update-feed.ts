// What an update feed says, in electron-updater's format (electron-builder writes it next to the installers):
// `latest.yml` (stable) or `beta.yml` (prereleases) with a platform suffix (`-mac`, `-linux`, `-linux-arm64`; none on
// Windows), holding `version`, `files[]` (`url` relative to the feed or absolute, `sha512` in base64, `size`) and
// `releaseDate`. Which file fits this installation, and how versions order (semver 2.0.0 precedence). Pure.
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { UpdateChannel } from '../../../shared/updates.schema.js';

const FeedFileSchema = z.object({
  url: z.string().min(1),
  sha512: z.string().min(1),
  size: z.number().int().positive(),
});

export const FeedInfoSchema = z.object({
  version: z.string().min(1),
  files: z.array(FeedFileSchema).min(1),
  releaseDate: z.string().optional(),
});
export type FeedInfo = z.infer<typeof FeedInfoSchema>;
export type FeedFile = z.infer<typeof FeedFileSchema>;

/** How this copy of the app was installed, which decides the feed file and the installer it takes. */
export interface Installation {
  platform: NodeJS.Platform;
  arch: string;
  /** Linux: the AppImage replaces itself, a .deb is installed by the package manager. */
  linuxPackage?: 'AppImage' | 'deb';
}

/** electron-updater's channel file name: `latest.yml` on Windows, `latest-mac.yml`, `latest-linux[-arch].yml`. */
export function channelFileName(channel: 'latest' | 'beta', at: Installation): string {
  const suffix =
    at.platform === 'linux'
      ? `-linux${at.arch === 'x64' ? '' : `-${at.arch}`}`
      : at.platform === 'darwin'
        ? '-mac'
        : '';
  return `${channel}${suffix}.yml`;
}

/** The feed files a channel reads: the stable one, and on beta the beta one too (the newer of the two wins). */
export const channelFiles = (channel: UpdateChannel, at: Installation): string[] =>
  channel === 'beta' ? [channelFileName('beta', at), channelFileName('latest', at)] : [channelFileName('latest', at)];

/** A feed file's text parsed; throws a readable reason when it is not one. */
export function parseFeed(text: string, name: string): FeedInfo {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (err) {
    throw new Error(`${name} is not YAML (${(err as Error).message})`, { cause: err });
  }
  const info = FeedInfoSchema.safeParse(value);
  if (!info.success) throw new Error(`${name} is not an update feed (${info.error.issues[0]?.message ?? 'invalid'})`);
  if (!parseVersion(info.data.version)) throw new Error(`${name} names no semver version ("${info.data.version}")`);
  return info.data;
}

/** The installer this installation takes: the .exe (NSIS), the Mac zip of its architecture, the AppImage or .deb. */
export function pickFile(info: FeedInfo, at: Installation): FeedFile | null {
  const ext = (f: FeedFile) => f.url.split(/[?#]/)[0].toLowerCase();
  if (at.platform === 'win32') return info.files.find((f) => ext(f).endsWith('.exe')) ?? null;
  if (at.platform === 'darwin') {
    const zips = info.files.filter((f) => ext(f).endsWith('.zip'));
    // electron-builder names the Apple-silicon zip with "arm64"; the Intel one has "x64" or no architecture.
    return (
      (at.arch === 'arm64'
        ? zips.find((f) => ext(f).includes('arm64'))
        : zips.find((f) => !ext(f).includes('arm64'))) ?? null
    );
  }
  const wanted = at.linuxPackage === 'deb' ? '.deb' : '.appimage';
  return info.files.find((f) => ext(f).endsWith(wanted)) ?? null;
}

interface Version {
  core: [number, number, number];
  pre: (string | number)[];
}

function parseVersion(text: string): Version | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!m) return null;
  const pre = m[4] ? m[4].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [];
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre };
}

export const isPrerelease = (version: string): boolean => (parseVersion(version)?.pre.length ?? 0) > 0;

/** semver precedence: < 0 when a is older than b, 0 when equal, > 0 when newer. Build metadata is ignored. */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) throw new Error(`not a semver version: "${x ? b : a}"`);
  for (let i = 0; i < 3; i++) if (x.core[i] !== y.core[i]) return x.core[i] - y.core[i];
  // A release is newer than its prereleases (1.2.0 > 1.2.0-beta.3).
  if (!x.pre.length || !y.pre.length) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    // Numeric identifiers are older than alphanumeric ones.
    if (typeof p === 'number' && typeof q === 'number') return p - q;
    if (typeof p === 'number') return -1;
    if (typeof q === 'number') return 1;
    return p < q ? -1 : 1;
  }
  return 0;
}
