// What each MCP tool does to the world, for hosts that ask before a charge or a change (MCP ToolAnnotations).
// Every tool registered in mcp-tools.ts and mcp-login-tools.ts has an entry; test/integration/mcp checks the list against the tools.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

const read: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

export const TOOL_ANNOTATIONS: Record<string, ToolAnnotations> = {
  list_credentials: { ...read, title: 'List saved logins' },
  list_browser_profiles: { ...read, title: "List the person's browser profiles" },
  import_session: {
    title: "Import a site's session from the person's browser profile",
    readOnlyHint: false, // it writes the session cache
    destructiveHint: false,
    idempotentHint: true, // importing again replaces the same cached session
    openWorldHint: true, // the session check visits the site
  },
  login: {
    title: 'Log in to a website',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true, // the same login again is served from the cache
    openWorldHint: true, // a real browser visits the site
  },
  wait_for_login: {
    title: 'Wait for a login a person finishes',
    readOnlyHint: false, // it takes the login's state, which is given once
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  list_sessions: { ...read, title: 'List cached login sessions' },
  validate_session: {
    title: 'Check a cached login session on its site',
    readOnlyHint: false,
    destructiveHint: true, // a dead session is dropped from the cache
    idempotentHint: true,
    openWorldHint: true,
  },
  refresh_session: {
    title: 'Renew a login session with its saved login',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  list_templates: { ...read, title: 'List video templates' },
  get_template: { ...read, title: 'Get a video template' },
  presign_upload: { title: 'Get an upload URL', readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  upload_file: { title: 'Upload a local file', readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  quote_video: { ...read, title: 'Quote a video generation (charges nothing)' },
  // Each call charges credits (the tool's description says how many): hosts should confirm.
  generate_video: {
    title: 'Generate videos from a template (charges credits)',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  create_generation: {
    title: 'Create a generation from a model (charges credits)',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  get_generation: { ...read, title: 'Get a generation' },
  wait_for_generation: { ...read, title: 'Wait for a generation to finish' },
};
