// What the Electron shell gives the desktop channels, for tests without Electron: a host around a core
// that already runs (a test server; restarting it is not offered), and a theme store in memory.
import type { CoreHost, HostedCore } from '../../../src/main/core/desktop/core-host.js';
import type { CoreApi } from '../../../src/main/core/http/in-process-api.js';
import type { Core } from '../../../src/main/core/create-core.js';
import type { ThemeStore } from '../../../src/main/core/desktop/settings-channels.js';
import type { AppInfo, Theme } from '../../../src/shared/ipc-contract.js';

export type TestHost = Pick<CoreHost, 'current' | 'isRestarting' | 'restart'>;

/** A host whose core is the given one for good; restart() fails (settings:update says so). */
export function staticHost(running: {
  core: Core;
  api: CoreApi;
  orgId: string;
  keyId: string | null;
  info: AppInfo;
}): TestHost {
  const hosted: HostedCore = {
    core: running.core,
    desktop: { api: running.api, orgId: running.orgId, keyId: running.keyId },
    info: running.info,
    close: async () => undefined,
  };
  return {
    current: () => hosted,
    isRestarting: false,
    restart: () => Promise.reject(new Error('this test core cannot be restarted')),
  };
}

export function memoryThemeStore(initial: Theme = 'system'): ThemeStore & { value: Theme } {
  const store = {
    value: initial,
    get: () => store.value,
    set: (theme: Theme) => void (store.value = theme),
  };
  return store;
}
