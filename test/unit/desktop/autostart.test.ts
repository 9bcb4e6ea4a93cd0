// src/main/core/desktop/autostart.ts and desktop-entry.ts: the decisions of start at login with the platform, the
// environment and the paths given, so this suite on Linux covers macOS and Windows too: which mechanism, which
// executable (an AppImage's own file), what Electron's login-item answer means, whether a start is one at login, and
// the XDG autostart entry (its path, its Exec quoting read back as the Desktop Entry spec reads it, its on/off).
import { describe, expect, it } from 'vitest';
import {
  autostartMechanism,
  BACKGROUND_ARG,
  FROM_SOURCE,
  hasBackgroundArg,
  isBackgroundStart,
  launchExecutable,
  loginItemState,
} from '../../../src/main/core/desktop/autostart.js';
import {
  autostartDesktopEntry,
  autostartEntryState,
  autostartFilePath,
  execLine,
  parseDesktopEntry,
  quoteExecArgument,
} from '../../../src/main/core/desktop/desktop-entry.js';

describe('which mechanism each platform uses', () => {
  it('macOS a login item, Windows the Run key, Linux and the BSDs an XDG autostart entry', () => {
    expect(autostartMechanism('darwin')).toBe('login-item');
    expect(autostartMechanism('win32')).toBe('run-key');
    expect(autostartMechanism('linux')).toBe('xdg-autostart');
    expect(autostartMechanism('freebsd')).toBe('xdg-autostart');
  });
});

describe('whether this start is one at login (no window)', () => {
  const never = () => {
    throw new Error('macOS was asked off macOS, or with the argument there');
  };

  it('Windows and Linux: the --background argument the Run key and the autostart entry pass', () => {
    for (const platform of ['win32', 'linux'] as const) {
      expect(
        isBackgroundStart({ argv: ['C:\\Agent Studio.exe', '--background'], platform, openedAtLogin: never }),
      ).toBe(true);
      expect(isBackgroundStart({ argv: ['/opt/Agent Studio/agent-studio'], platform, openedAtLogin: never })).toBe(
        false,
      );
    }
    // wherever Chromium or a run from source put it among other arguments
    expect(hasBackgroundArg(['electron', '.', '--no-sandbox', BACKGROUND_ARG])).toBe(true);
    // the program's own path is not an argument, and only the exact argument counts
    expect(hasBackgroundArg(['--background'])).toBe(false);
    expect(hasBackgroundArg(['app', '--background=no', '--backgrounds'])).toBe(false);
  });

  it('macOS: a login item passes no arguments, so macOS is asked whether it opened the app at login', () => {
    expect(
      isBackgroundStart({ argv: ['/Applications/Agent Studio.app/x'], platform: 'darwin', openedAtLogin: () => true }),
    ).toBe(true);
    expect(
      isBackgroundStart({ argv: ['/Applications/Agent Studio.app/x'], platform: 'darwin', openedAtLogin: () => false }),
    ).toBe(false);
  });
});

describe('which program the OS starts at login', () => {
  it('the installed executable; a run from source cannot be started so, and says why', () => {
    expect(
      launchExecutable({ platform: 'win32', env: {}, execPath: 'C:\\Apps\\Agent Studio.exe', packaged: true }),
    ).toEqual({ executable: 'C:\\Apps\\Agent Studio.exe', unavailable: null });
    expect(
      launchExecutable({ platform: 'linux', env: {}, execPath: '/opt/Agent Studio/agent-studio', packaged: true }),
    ).toEqual({ executable: '/opt/Agent Studio/agent-studio', unavailable: null });
    expect(
      launchExecutable({ platform: 'darwin', env: {}, execPath: '/repo/node_modules/electron/x', packaged: false }),
    ).toEqual({ executable: null, unavailable: FROM_SOURCE });
  });

  it('an AppImage: its .AppImage file (APPIMAGE), not the executable in its mount under /tmp', () => {
    const at = {
      platform: 'linux' as const,
      env: { APPIMAGE: '/home/ada/Apps/Agent Studio-0.1.0.AppImage' },
      execPath: '/tmp/.mount_AgentSx1y2z/agent-studio',
      packaged: true,
    };
    expect(launchExecutable(at).executable).toBe('/home/ada/Apps/Agent Studio-0.1.0.AppImage');
    // APPIMAGE means nothing elsewhere (a variable left in the environment)
    expect(launchExecutable({ ...at, platform: 'win32', execPath: 'C:\\x.exe' }).executable).toBe('C:\\x.exe');
  });
});

describe("what Electron's login-item answer means for the person", () => {
  it('macOS 13+: by the login item status; waiting for approval or not found is off, with what to do', () => {
    expect(loginItemState('darwin', { openAtLogin: true, status: 'enabled' })).toEqual({ on: true, note: null });
    expect(loginItemState('darwin', { openAtLogin: false, status: 'not-registered' })).toEqual({
      on: false,
      note: null,
    });
    const waiting = loginItemState('darwin', { openAtLogin: true, status: 'requires-approval' });
    expect(waiting.on).toBe(false);
    expect(waiting.note).toMatch(/System Settings → General → Login Items, allow Agent Studio/);
    expect(loginItemState('darwin', { openAtLogin: false, status: 'not-found' }).note).toMatch(/Applications/);
    // macOS 12: no status, the login item list is the answer
    expect(loginItemState('darwin', { openAtLogin: true })).toEqual({ on: true, note: null });
  });

  it('Windows: on when the Run key starts this executable and Task Manager has not turned it off', () => {
    expect(loginItemState('win32', { openAtLogin: true, executableWillLaunchAtLogin: true })).toEqual({
      on: true,
      note: null,
    });
    expect(loginItemState('win32', { openAtLogin: false, executableWillLaunchAtLogin: false })).toEqual({
      on: false,
      note: null,
    });
    const disabled = loginItemState('win32', { openAtLogin: true, executableWillLaunchAtLogin: false });
    expect(disabled).toEqual({ on: false, note: expect.stringMatching(/Turned off in Task Manager → Startup apps/) });
    // a value with other arguments (not --background) still starts it: on, with its window, and said so
    const other = loginItemState('win32', { openAtLogin: false, executableWillLaunchAtLogin: true });
    expect(other).toEqual({ on: true, note: expect.stringMatching(/outside this setting .* with its window/) });
  });
});

describe('the XDG autostart entry', () => {
  it('lives in $XDG_CONFIG_HOME/autostart, else ~/.config/autostart (an empty or relative XDG_CONFIG_HOME is ignored)', () => {
    const home = '/home/ada';
    expect(autostartFilePath({ env: {}, home })).toBe('/home/ada/.config/autostart/agent-studio.desktop');
    expect(autostartFilePath({ env: { XDG_CONFIG_HOME: '/srv/conf' }, home })).toBe(
      '/srv/conf/autostart/agent-studio.desktop',
    );
    expect(autostartFilePath({ env: { XDG_CONFIG_HOME: '' }, home })).toBe(
      '/home/ada/.config/autostart/agent-studio.desktop',
    );
    expect(autostartFilePath({ env: { XDG_CONFIG_HOME: 'conf' }, home })).toBe(
      '/home/ada/.config/autostart/agent-studio.desktop',
    );
  });

  it('is a Type=Application entry that starts the quoted executable with --background, autostart enabled', () => {
    expect(autostartDesktopEntry('/opt/Agent Studio/agent-studio')).toBe(
      [
        '[Desktop Entry]',
        'Type=Application',
        'Version=1.5',
        'Name=Agent Studio',
        'Comment=Starts the local API for AI agents in the background when you log in',
        'Exec="/opt/Agent Studio/agent-studio" --background',
        'Terminal=false',
        'X-GNOME-Autostart-enabled=true',
        '',
      ].join('\n'),
    );
  });

  it('quotes the executable as the spec says: `"`, backtick, `$` and `\\` escaped, `%` doubled', () => {
    expect(quoteExecArgument('/opt/a b')).toBe('"/opt/a b"');
    expect(quoteExecArgument('/x/$HOME/`id`/"q"/b\\s/100%')).toBe('"/x/\\$HOME/\\`id\\`/\\"q\\"/b\\\\s/100%%"');
    // in the file, the string escapes come on top: a `$` is `\\$`, a backslash four of them (the spec's own examples)
    const entry = autostartDesktopEntry('/x/$y/b\\s');
    expect(entry).toContain('Exec="/x/\\\\$y/b\\\\\\\\s" --background\n');
  });

  it('reads back, as a Desktop Entry reader does, to the very path and --background, whatever the path holds', () => {
    for (const executable of [
      '/opt/Agent Studio/agent-studio',
      '/home/ada/My $HOME `x` "quoted" \'single\' ~ # ; & | < > * ? ( )/Agent Studio.AppImage',
      '/home/ada/back\\slash/100% done/tab\there/new\nline/app',
    ]) {
      const exec = parseDesktopEntry(autostartDesktopEntry(executable))?.get('Exec');
      expect(exec).toBe(execLine(executable));
      expect(execArguments(exec!), executable).toEqual([executable, '--background']);
    }
  });

  it('is on when a working entry is there, off when absent, hidden, disabled or not an entry', () => {
    const exec = execLine('/opt/Agent Studio/agent-studio');
    const ours = autostartDesktopEntry('/opt/Agent Studio/agent-studio');
    expect(autostartEntryState(null, exec)).toEqual({ on: false, note: null });
    expect(autostartEntryState(ours, exec)).toEqual({ on: true, note: null });
    // as GNOME's startup settings (and a person with an editor) turn it off
    const disabled = autostartEntryState(
      ours.replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'),
      exec,
    );
    expect(disabled).toEqual({ on: false, note: expect.stringMatching(/X-GNOME-Autostart-enabled=false/) });
    expect(autostartEntryState(`${ours}Hidden=true\n`, exec)).toEqual({
      on: false,
      note: expect.stringMatching(/Hidden=true/),
    });
    for (const broken of ['', 'Exec=/bin/true\n', ours.replace('Type=Application', 'Type=Link')])
      expect(autostartEntryState(broken, exec)).toEqual({
        on: false,
        note: expect.stringMatching(/not a desktop entry/),
      });
    // a key of another group, or a comment, is not the entry's
    const commented = ours.replace('X-GNOME-Autostart-enabled=true', '# X-GNOME-Autostart-enabled=false');
    expect(autostartEntryState(`${commented}[Desktop Action x]\nHidden=true\n`, exec)).toEqual({
      on: true,
      note: null,
    });
  });

  it('an entry for another path (the AppImage was moved) still starts something: on, and says what it starts', () => {
    const old = autostartDesktopEntry('/home/ada/Downloads/Agent Studio.AppImage');
    const state = autostartEntryState(old, execLine('/home/ada/Apps/Agent Studio.AppImage'));
    expect(state.on).toBe(true);
    expect(state.note).toContain('"/home/ada/Downloads/Agent Studio.AppImage" --background');
    // a copy that cannot start at login (a run from source) does not judge an installed app's entry
    expect(autostartEntryState(old, null)).toEqual({ on: true, note: null });
  });
});

/**
 * The arguments of an Exec value (string escapes already undone) as the Desktop Entry spec reads them: split at
 * unquoted spaces, quotes removed with their backslash escapes (`"`, backtick, `$`, `\`), then `%%` read as `%`.
 */
function execArguments(exec: string): string[] {
  const args: string[] = [];
  let current: string | null = null;
  for (let i = 0; i < exec.length; i++) {
    const c = exec[i];
    if (c === ' ') {
      if (current !== null) args.push(current);
      current = null;
    } else if (c === '"') {
      current ??= '';
      for (i++; exec[i] !== '"'; i++) {
        if (i >= exec.length) throw new Error(`unterminated quote in ${exec}`);
        if (exec[i] === '\\' && '"`$\\'.includes(exec[i + 1])) i++;
        current += exec[i];
      }
    } else {
      current = (current ?? '') + c;
    }
  }
  if (current !== null) args.push(current);
  return args.map((arg) => arg.replaceAll('%%', '%'));
}
