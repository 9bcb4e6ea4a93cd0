import type { AppInfo } from '../../../src/shared/ipc-contract.js';
import { APP_VERSION } from '../../../src/shared/version.js';
import type { TestServer } from '../../helpers/test-server.js';

/** What app.getInfo answers for a desktop app backed by the given test server. */
export function testAppInfo(t: TestServer): AppInfo {
  return {
    version: APP_VERSION,
    serverUrl: t.url,
    serverError: null,
    dataDir: t.dataDir,
    hasDesktopKey: true,
    secretBackend: t.core.secrets.backend,
    secretStoreError: null,
    secretsMissing: null,
    platform: process.platform,
  };
}
