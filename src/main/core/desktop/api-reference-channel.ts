// Settings → Local API's link to the API reference: GET /docs of the server this app runs, opened in the person's
// browser. Plain Node: the Electron layer supplies how a local page is opened (and checks the address again).
import { API_ROUTES } from '../../../shared/api/index.js';
import type { CoreHost } from './core-host.js';
import { fail } from './http-channel.js';
import type { LocalHandlers } from './ipc-dispatcher.js';

/** The reference page of the server at `serverUrl` (http://127.0.0.1:<port>). */
export const apiReferenceUrl = (serverUrl: string): string => new URL(API_ROUTES.apiReference.path, serverUrl).href;

export interface ApiReferenceChannelDeps {
  host: Pick<CoreHost, 'current'>;
  /** Opens the page in the OS browser; false when it refuses the address. */
  open(url: string): Promise<boolean>;
}

export function apiReferenceChannel(deps: ApiReferenceChannelDeps): Pick<LocalHandlers, 'app:openApiReference'> {
  return {
    'app:openApiReference': async () => {
      const { serverUrl } = deps.host.current().info;
      if (!serverUrl)
        return fail('not_listening', 'The local API is not listening, so there is no reference to open (see above).');
      if (!(await deps.open(apiReferenceUrl(serverUrl))))
        return fail('open_failed', 'The API reference could not be opened in the browser.');
      return { ok: true, value: { opened: true } };
    },
  };
}
