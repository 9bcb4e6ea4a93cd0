// src/main/core/desktop/autostart-channels.ts over a real folder and stand-ins of the OS: on Linux the autostart file
// is written, read back, turned off (removed) and hand-edited in a temp XDG_CONFIG_HOME; macOS and Windows go through
// a stand-in of Electron's login items that keeps what Electron documents (Windows compares path and arguments, and
// Task Manager can turn a Run key value off; macOS may wait for the person's approval). What is said is always what
// the OS says afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  applyAutostart,
  autostartChannels,
  readAutostart,
  type AutostartOs,
  type LoginItems,
} from '../../../src/main/core/desktop/autostart-channels.js';
import { FROM_SOURCE, type LoginItemFacts } from '../../../src/main/core/desktop/autostart.js';
import type { Logger } from '../../../src/main/core/logger.js';
import { tempDir } from '../../helpers/temp-dir.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
const newDir = () => {
  const dir = tempDir('agent-studio-autostart-');
  dirs.push(dir);
  return dir;
};

const quiet = { info: () => undefined, warn: () => undefined } as unknown as Logger;

function linuxOs(over: Partial<AutostartOs> = {}): AutostartOs & { file: string } {
  const config = newDir();
  return {
    platform: 'linux',
    env: { XDG_CONFIG_HOME: config },
    execPath: '/opt/Agent Studio/agent-studio',
    packaged: true,
    home: '/nonexistent-home',
    loginItems: null,
    file: path.join(config, 'autostart', 'agent-studio.desktop'),
    ...over,
  };
}

describe('Linux: the XDG autostart file, for real in a temp XDG_CONFIG_HOME', () => {
  it('turned on writes the entry (folder made), read back as on; turned off removes it', async () => {
    const os = linuxOs();
    const channels = autostartChannels({ os, log: () => quiet });
    expect(await channels['autostart:get'](undefined)).toEqual({
      ok: true,
      value: { on: false, mechanism: 'xdg-autostart', where: os.file, unavailable: null, note: null },
    });

    expect(await channels['autostart:set']({ on: true })).toMatchObject({ ok: true, value: { on: true, note: null } });
    const text = fs.readFileSync(os.file, 'utf8');
    expect(text).toMatch(/^\[Desktop Entry\]\nType=Application\n/);
    expect(text).toContain('\nExec="/opt/Agent Studio/agent-studio" --background\n');
    expect(text).toContain('\nX-GNOME-Autostart-enabled=true\n');
    // written whole: nothing left beside it
    expect(fs.readdirSync(path.dirname(os.file))).toEqual(['agent-studio.desktop']);
    expect(fs.statSync(os.file).mode & 0o777).toBe(0o644);

    expect(await channels['autostart:set']({ on: false })).toMatchObject({ ok: true, value: { on: false } });
    expect(fs.existsSync(os.file)).toBe(false);
    // off twice is still off
    expect(await channels['autostart:set']({ on: false })).toMatchObject({ ok: true, value: { on: false } });
  });

  it('a file turned off by hand (X-GNOME-Autostart-enabled=false) reads as off; turning it on rewrites it', () => {
    const os = linuxOs();
    applyAutostart(os, true);
    fs.writeFileSync(
      os.file,
      fs.readFileSync(os.file, 'utf8').replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'),
    );
    const state = readAutostart(os);
    expect(state.on).toBe(false);
    expect(state.note).toMatch(/X-GNOME-Autostart-enabled=false/);
    applyAutostart(os, true);
    expect(readAutostart(os)).toMatchObject({ on: true, note: null });
  });

  it('an AppImage starts its .AppImage file; under ~/.config without XDG_CONFIG_HOME', () => {
    const home = newDir();
    const os = linuxOs({
      env: { APPIMAGE: '/home/ada/Apps/Agent Studio.AppImage' },
      execPath: '/tmp/.mount_AgentS0/agent-studio',
      home,
    });
    applyAutostart(os, true);
    const file = path.join(home, '.config', 'autostart', 'agent-studio.desktop');
    expect(fs.readFileSync(file, 'utf8')).toContain('\nExec="/home/ada/Apps/Agent Studio.AppImage" --background\n');
    expect(readAutostart(os)).toMatchObject({ on: true, where: file });
  });

  it('a run from source says why it cannot, and changes nothing', async () => {
    const os = linuxOs({ packaged: false });
    const channels = autostartChannels({ os, log: () => quiet });
    expect(await channels['autostart:get'](undefined)).toMatchObject({
      ok: true,
      value: { on: false, unavailable: FROM_SOURCE },
    });
    expect(await channels['autostart:set']({ on: true })).toEqual({
      ok: false,
      error: { code: 'autostart_unavailable', message: FROM_SOURCE },
    });
    expect(fs.existsSync(os.file)).toBe(false);
  });

  it('a folder that cannot be written is a refusal the window shows, not a crash', async () => {
    const config = newDir();
    fs.writeFileSync(path.join(config, 'autostart'), 'a file where the folder should be');
    const os = linuxOs({ env: { XDG_CONFIG_HOME: config } });
    const res = await autostartChannels({ os, log: () => quiet })['autostart:set']({ on: true });
    expect(res).toMatchObject({ ok: false, error: { code: 'autostart_failed' } });
    expect(res.ok ? '' : res.error.message).toMatch(/^The start at login could not be changed: /);
  });
});

/**
 * Electron's Windows login items as documented: Run key values by name (the app's AppUserModelId), `openAtLogin` true
 * for a value with the same path and arguments as asked about, `executableWillLaunchAtLogin` for any value of that
 * path that Task Manager has not turned off; setting it on turns it on in Task Manager too (`enabled` defaults true).
 */
function windowsRunKey(): LoginItems & { values: Map<string, { path: string; args: string[]; enabled: boolean }> } {
  const values = new Map<string, { path: string; args: string[]; enabled: boolean }>();
  return {
    values,
    get: ({ path: exe, args }) => ({
      openAtLogin: [...values.values()].some((v) => v.path === exe && v.args.join(' ') === args.join(' ')),
      executableWillLaunchAtLogin: [...values.values()].some((v) => v.path === exe && v.enabled),
    }),
    set: ({ openAtLogin, path: exe, args }) => {
      if (openAtLogin) values.set('dev.agentstudio.app', { path: exe, args, enabled: true });
      else values.delete('dev.agentstudio.app');
    },
  };
}

describe('Windows: the Run key through Electron', () => {
  const exe = 'C:\\Users\\ada\\AppData\\Local\\Programs\\Agent Studio\\Agent Studio.exe';
  const winOs = (loginItems: LoginItems): AutostartOs => ({
    platform: 'win32',
    env: {},
    execPath: exe,
    packaged: true,
    home: 'C:\\Users\\ada',
    loginItems,
  });

  it('writes a value that starts the app with --background, and reads it back with the same path and arguments', () => {
    const runKey = windowsRunKey();
    const os = winOs(runKey);
    expect(readAutostart(os)).toMatchObject({
      on: false,
      mechanism: 'run-key',
      where: expect.stringMatching(/^Task Manager/),
    });
    applyAutostart(os, true);
    expect(runKey.values.get('dev.agentstudio.app')).toEqual({ path: exe, args: ['--background'], enabled: true });
    expect(readAutostart(os)).toMatchObject({ on: true, note: null });
    applyAutostart(os, false);
    expect(runKey.values.size).toBe(0);
    expect(readAutostart(os).on).toBe(false);
  });

  it('turned off in Task Manager reads as off, saying where; turning it on here turns it on there again', async () => {
    const runKey = windowsRunKey();
    const os = winOs(runKey);
    applyAutostart(os, true);
    runKey.values.get('dev.agentstudio.app')!.enabled = false;
    expect(readAutostart(os)).toMatchObject({ on: false, note: expect.stringMatching(/Task Manager/) });
    expect(await autostartChannels({ os, log: () => quiet })['autostart:set']({ on: true })).toMatchObject({
      ok: true,
      value: { on: true, note: null },
    });
  });
});

describe('macOS: a login item through Electron', () => {
  /** SMAppService as macOS 13+ answers: registered items are enabled, or wait for approval when `approval` says so. */
  function loginItem(approval: boolean): LoginItems & { asked: unknown[] } {
    let facts: LoginItemFacts = { openAtLogin: false, status: 'not-registered' };
    const asked: unknown[] = [];
    return {
      asked,
      get: () => facts,
      set: (settings) => {
        asked.push(settings);
        facts = settings.openAtLogin
          ? { openAtLogin: true, status: approval ? 'requires-approval' : 'enabled' }
          : { openAtLogin: false, status: 'not-registered' };
      },
    };
  }
  const macOs = (loginItems: LoginItems): AutostartOs => ({
    platform: 'darwin',
    env: {},
    execPath: '/Applications/Agent Studio.app/Contents/MacOS/Agent Studio',
    packaged: true,
    home: '/Users/ada',
    loginItems,
  });

  it('on and off; what is said is what macOS says afterwards', async () => {
    const item = loginItem(false);
    const channels = autostartChannels({ os: macOs(item), log: () => quiet });
    expect(await channels['autostart:set']({ on: true })).toMatchObject({
      ok: true,
      value: { on: true, mechanism: 'login-item', where: 'System Settings → General → Login Items' },
    });
    expect(item.asked[0]).toMatchObject({ openAtLogin: true, args: ['--background'] });
    expect(await channels['autostart:set']({ on: false })).toMatchObject({ ok: true, value: { on: false } });
  });

  it('waiting for approval in System Settings: the answer is off and says where to allow it', async () => {
    const channels = autostartChannels({ os: macOs(loginItem(true)), log: () => quiet });
    expect(await channels['autostart:set']({ on: true })).toMatchObject({
      ok: true,
      value: { on: false, note: expect.stringMatching(/waits for your approval/) },
    });
  });
});
