// The tools of sessions from the person's own browsers (docs/own-browsers-and-passkeys.md#sessions-from-your-own-browsers): registered only
// for a key granted "browser-profiles:read" by name (`*` does not grant it), so other keys never even see them.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  BrowserProfileListSchema,
  SessionImportRequestSchema,
  SessionImportResultSchema,
  type SessionImportRequest,
} from '../../../shared/browser-profiles.schema.js';
import { API_ROUTES } from '../../../shared/api/index.js';
import { hasScope } from '../../../shared/scopes.js';
import { callRoute } from '../http/in-process-api.js';
import { ok, type McpToolDeps, type ToolKit } from './mcp-tool-kit.js';

export function registerProfileTools(_server: McpServer, deps: McpToolDeps, { register, safe }: ToolKit): void {
  // Also skipped by the kit (mcp-tool-scopes.ts); said here too, as this is what the tools exist for.
  if (!hasScope(deps.scopes, API_ROUTES.listBrowserProfiles.scope)) return;
  const { api } = deps;

  register(
    'list_browser_profiles',
    {
      title: "List the person's browser profiles",
      description:
        'The Chrome, Chromium, Edge, Brave and Firefox profiles on this machine (GET /api/browser-profiles) with the ' +
        'sites each holds cookies for. Then import_session { profile, sites } imports a site’s session.',
      outputSchema: z.object(BrowserProfileListSchema.shape),
      inputSchema: z.object({}),
    },
    safe('list_browser_profiles', async () => {
      const list = (await callRoute(api, 'listBrowserProfiles')).body;
      const lines = list.data.map((p) => `- ${p.id}: ${p.browser} "${p.name}" (${p.origins.length} sites)`);
      return ok(`${list.data.length} browser profiles.${lines.length ? `\n${lines.join('\n')}` : ''}`, list);
    }),
  );

  register(
    'import_session',
    {
      title: "Import a site's session from the person's browser profile",
      description:
        "Imports the sites' sessions from one profile into the session cache (POST /api/sessions/import), each checked " +
        'at once on its site. The answer carries each session’s storageState.',
      outputSchema: z.object(SessionImportResultSchema.shape),
      inputSchema: z.object(SessionImportRequestSchema.shape),
    },
    safe('import_session', async (args: SessionImportRequest) => {
      const result = (await callRoute(api, 'importSessions', { body: args })).body;
      const lines = result.sessions.map(
        (s) => `- ${s.origin}: ${s.valid ? 'valid' : s.status} (${s.session_id ?? 'not kept'})`,
      );
      return ok(`Imported ${result.sessions.length} sessions.\n${lines.join('\n')}`, result);
    }),
  );
}
