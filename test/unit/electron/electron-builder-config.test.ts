// electron-builder.yml, read and checked by electron-builder's own loader and schema (app-builder-lib is
// the library inside the electron-builder devDependency), then held to what the app needs at run time.
import fs from 'node:fs';
import path from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import type { Configuration, TargetConfiguration } from 'app-builder-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const ROOT = REPO_ROOT;
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
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

  it('builds dmg and zip for both Mac architectures, nsis for Windows, AppImage and deb for Linux', () => {
    expect(targets(config.mac?.target)).toEqual([
      { target: 'dmg', arch: ['x64', 'arm64'] },
      { target: 'zip', arch: ['x64', 'arm64'] },
    ]);
    expect(targets(config.win?.target).map((t) => t.target)).toEqual(['nsis']);
    expect(targets(config.linux?.target).map((t) => t.target)).toEqual(['AppImage', 'deb']);
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
    expect(files.filter((f) => f.startsWith('!out/'))).toEqual(['!out/client/**']);
    expect(pkg.main).toBe('out/main/index.js');
    expect(config.extraResources).toEqual([{ from: 'resources', to: 'resources', filter: ['**/*'] }]);
    for (const sub of ['templates', 'characters', 'fonts', 'icons'])
      expect(fs.readdirSync(path.join(ROOT, 'resources', sub)).length, `resources/${sub}`).toBeGreaterThan(0);
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
