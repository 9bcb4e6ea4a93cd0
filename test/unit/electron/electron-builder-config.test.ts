// electron-builder.yml, read and checked by electron-builder's own loader and schema (app-builder-lib is
// the library inside the electron-builder devDependency), then held to what the app needs at run time.
import fs from 'node:fs';
import path from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { minimatch } from 'minimatch';
import type { Configuration, TargetConfiguration } from 'app-builder-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { DEFAULT_UPDATE_FEED_URL, RELEASES_REPO } from '../../../src/shared/updates.schema.js';

const ROOT = REPO_ROOT;
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  main: string;
  build?: unknown;
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};
let config: Configuration;

beforeAll(async () => {
  config = await getConfig(ROOT, null, null);
});

/** Target names with their architectures, whichever way the YAML spells them. */
function targets(list: unknown): { target: string; arch: string[] }[] {
  return ([] as unknown[]).concat(list ?? []).map((t) =>
    typeof t === 'string'
      ? { target: t, arch: [] }
      : {
          target: (t as TargetConfiguration).target,
          arch: ([] as string[]).concat(((t as TargetConfiguration).arch as string[] | undefined) ?? []),
        },
  );
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const buf = fs.readFileSync(file);
  expect(buf.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's schema, and is the only builder config (none in package.json)", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    expect(pkg.build).toBeUndefined();
    expect(pkg.scripts.dist).toBe('electron-vite build && electron-builder --publish never');
  });

  it("names the repository the updater's default feed reads (update files and app-update.yml), without uploading", () => {
    expect(config.publish).toEqual({ provider: 'github', ...RELEASES_REPO });
    expect(DEFAULT_UPDATE_FEED_URL).toBe(
      `https://github.com/${RELEASES_REPO.owner}/${RELEASES_REPO.repo}/releases/latest/download/`,
    );
    expect(pkg.scripts.dist).toContain('--publish never');
  });

  it('builds dmg and zip for both Mac architectures, nsis for Windows, deb (first) and AppImage for Linux', () => {
    expect(targets(config.mac?.target)).toEqual([
      { target: 'dmg', arch: ['x64', 'arm64'] },
      { target: 'zip', arch: ['x64', 'arm64'] },
    ]);
    expect(targets(config.win?.target).map((t) => t.target)).toEqual(['nsis']);
    // The .deb first: the AppImage does not start on Ubuntu 24.04+ (docs/desktop-app.md#installers-npm-run-dist).
    expect(targets(config.linux?.target).map((t) => t.target)).toEqual(['deb', 'AppImage']);
  });

  it('flips the Electron fuses that let another local program run code as the app', () => {
    // Each key is one electron-builder 26 knows (its schema refuses others, and so does validateConfiguration).
    const scheme = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'node_modules', 'app-builder-lib', 'scheme.json'), 'utf8'),
    ) as {
      properties: Record<string, unknown>;
      definitions: { FuseOptionsV1: { properties: Record<string, unknown> } };
    };
    expect(scheme.properties).toHaveProperty('electronFuses');
    const known = Object.keys(scheme.definitions.FuseOptionsV1.properties);
    expect(known).toEqual(expect.arrayContaining(Object.keys(config.electronFuses ?? {})));
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      // Unsigned Apple-silicon builds would not start with the signature the flip invalidated.
      resetAdHocDarwinSignature: true,
    });
  });

  it('names every installer without spaces, as docs/desktop-app.md lists them (GitHub renames assets with spaces)', () => {
    const names = [
      config.mac?.artifactName,
      config.dmg?.artifactName,
      config.nsis?.artifactName,
      config.linux?.artifactName,
    ];
    for (const name of names) {
      expect(name).toBeTypeOf('string');
      expect(name).not.toMatch(/ |\$\{productName\}/);
    }
    expect(pkg.name).toMatch(/^[a-z0-9-]+$/);
    const guide = fs.readFileSync(path.join(ROOT, 'docs', 'desktop-app.md'), 'utf8');
    const expected = {
      mac: `${pkg.name}-<version>-{x64,arm64}-mac.zip`,
      dmg: `${pkg.name}-<version>-{x64,arm64}.dmg`,
      nsis: `${pkg.name}-setup-<version>.exe`,
      deb: `${pkg.name}-<version>-amd64.deb`,
      appImage: `${pkg.name}-<version>-x86_64.AppImage`,
    };
    for (const name of Object.values(expected)) expect(guide).toContain(`\`${name}\``);
    const asReadme = (template: string | null | undefined, arch: string, ext: string) =>
      template!
        .replace('${name}', pkg.name)
        .replace('${version}', '<version>')
        .replace('${arch}', arch)
        .replace('${ext}', ext);
    expect(asReadme(config.mac?.artifactName, '{x64,arm64}', 'zip')).toBe(expected.mac);
    expect(asReadme(config.dmg?.artifactName, '{x64,arm64}', 'dmg')).toBe(expected.dmg);
    expect(asReadme(config.nsis?.artifactName, 'x64', 'exe')).toBe(expected.nsis);
    expect(asReadme(config.linux?.artifactName, 'amd64', 'deb')).toBe(expected.deb);
    expect(asReadme(config.linux?.artifactName, 'x86_64', 'AppImage')).toBe(expected.appImage);
  });

  it('signs macOS builds with the hardened runtime and an entitlements file that lets V8 run', () => {
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.mac?.notarize).toBe(true);
    for (const file of [config.mac?.entitlements, config.mac?.entitlementsInherit]) {
      expect(file).toBeTypeOf('string');
      const plist = fs.readFileSync(path.join(ROOT, file!), 'utf8');
      expect(plist).toMatch(/<key>com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/);
      // Hardened-runtime exceptions the app does not need stay off.
      expect(plist).not.toMatch(/disable-library-validation|allow-dyld-environment-variables|get-task-allow/);
    }
  });

  it('unpacks and rebuilds the native modules, which are production dependencies', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining(['**/*.node', 'node_modules/better-sqlite3/**', 'node_modules/keytar/**']),
    );
    expect(config.npmRebuild).toBe(true);
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['better-sqlite3', 'keytar']));
  });

  it('packs the built main, preload and renderer, and the resources next to the archive', () => {
    // The loader normalizes `files` to file sets; the patterns are their filters.
    const files = ([] as unknown[])
      .concat(config.files ?? [])
      .flatMap((set) =>
        typeof set === 'string' ? [set] : ([] as string[]).concat((set as { filter?: string[] }).filter ?? []),
      );
    expect(files).toEqual(expect.arrayContaining(['out/**', 'package.json']));
    expect(files.filter((f) => f.startsWith('!out/'))).toEqual([]);
    expect(pkg.main).toBe('out/main/index.js');
    expect(config.extraResources).toEqual([{ from: 'resources', to: 'resources', filter: ['**/*'] }]);
    for (const sub of ['templates', 'characters', 'fonts', 'icons'])
      expect(fs.readdirSync(path.join(ROOT, 'resources', sub)).length, `resources/${sub}`).toBeGreaterThan(0);
  });

  it("leaves the other systems' native prebuilds out of each installer", () => {
    const patterns = ([] as unknown[])
      .concat(config.files ?? [])
      .flatMap((set) =>
        typeof set === 'string' ? [set] : ([] as string[]).concat((set as { filter?: string[] }).filter ?? []),
      )
      .filter((p) => p.includes('prebuilds'));
    expect(patterns.length).toBeGreaterThan(0);
    const prebuilds = ['better-sqlite3', 'classic-level'].flatMap((pkgName) =>
      fs
        .readdirSync(path.join(ROOT, 'node_modules', pkgName, 'prebuilds'), { withFileTypes: true })
        .flatMap((entry) =>
          entry.isDirectory()
            ? fs
                .readdirSync(path.join(entry.parentPath, entry.name))
                .map((f) => `node_modules/${pkgName}/prebuilds/${entry.name}/${f}`)
            : [`node_modules/${pkgName}/prebuilds/${entry.name}`],
        ),
    );
    for (const platform of ['darwin', 'win32', 'linux']) {
      // electron-builder expands ${platform} to the building OS and matches with minimatch ({ dot: true }).
      const excluded = (file: string) =>
        patterns.some((p) => minimatch(file, p.slice(1).replace('${platform}', platform), { dot: true }));
      const kept = prebuilds.filter((file) => !excluded(file));
      expect(kept.length, platform).toBeGreaterThan(0);
      for (const file of kept)
        expect(path.basename(path.dirname(file)) + '/' + path.basename(file)).toContain(platform);
      for (const file of prebuilds.filter(excluded))
        expect(file.replace(/.*prebuilds\//, '')).not.toMatch(new RegExp(`^${platform}-`));
    }
  });

  it('has a 512x512 app icon, and tray icons for Windows/Linux and the macOS menu bar', () => {
    for (const platform of [config.mac, config.win, config.linux]) expect(platform?.icon).toBe('build/icon.png');
    expect(pngSize(path.join(ROOT, 'build', 'icon.png'))).toEqual({ width: 512, height: 512 });
    expect(pngSize(path.join(ROOT, 'resources', 'icons', 'tray.png'))).toEqual({ width: 32, height: 32 });
    expect(pngSize(path.join(ROOT, 'resources', 'icons', 'trayTemplate.png'))).toEqual({ width: 16, height: 16 });
    expect(pngSize(path.join(ROOT, 'resources', 'icons', 'trayTemplate@2x.png'))).toEqual({ width: 32, height: 32 });
  });

  it("keeps electron-builder's default deb dependencies (GTK, NSS, libsecret) and recommends ffmpeg", () => {
    // Setting `depends` would replace the defaults, and the app would install without GTK or libsecret.
    expect(config.deb?.depends).toBeUndefined();
    expect(config.deb?.recommends).toEqual(['ffmpeg']);
  });
});
