// Which MCP tools a key is offered: each tool is a call of one or more routes of the route table, and a key sees only
// the tools whose every route its scopes allow (docs/security.md#mcp-offers-only-what-the-key-can-call). tools/list then says what the key can do, instead
// of offering tools that answer `forbidden`.
import { API_ROUTES, type ApiRouteName } from '../../../shared/api/index.js';
import { hasScope } from '../../../shared/scopes.js';

/** The routes each tool calls (its handler and the helpers it waits with). A tool missing here is never offered. */
export const TOOL_ROUTES: Record<string, readonly ApiRouteName[]> = {
  list_credentials: ['listCredentials'],
  list_browser_profiles: ['listBrowserProfiles'],
  import_session: ['importSessions'],
  login: ['login', 'loginStatus', 'loginState', 'typeLoginCode', 'cancelLogin'],
  wait_for_login: ['loginStatus', 'loginState'],
  list_sessions: ['listSessions'],
  validate_session: ['validateSession'],
  refresh_session: ['refresh'],
  list_templates: ['listTemplates'],
  get_template: ['getTemplate'],
  presign_upload: ['presignUpload'],
  upload_file: ['presignUpload'],
  quote_video: ['quoteTemplate'],
  generate_video: ['generate'],
  create_generation: ['createGeneration'],
  get_generation: ['getGeneration'],
  wait_for_generation: ['getGeneration'],
};

/** True when `scopes` allow every route the tool calls (routes that need only a valid key count as allowed). */
export function toolAllowed(tool: string, scopes: readonly string[]): boolean {
  const routes = TOOL_ROUTES[tool];
  if (!routes) return false;
  return routes.every((name) => {
    const { scope } = API_ROUTES[name];
    return !scope || hasScope(scopes, scope);
  });
}
