// The API reference page (GET /docs): Scalar's Fastify plugin renders the OpenAPI document of the route table
// (GET /api/openapi.json) with its own bundled script, which this server serves too (GET /docs/scalar.js), so the
// page works offline and asks nothing of any other host. The plugin is not registered on the server: its routes would
// be routes outside the route table. It runs once, on the first request, inside a private Fastify instance that
// never listens, and the page and script it answers there are what these two routes serve.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyReply } from 'fastify';
import { API_ROUTES } from '../../../shared/api/index.js';
import { lazyModule } from '../lazy-module.js';

/**
 * What the reference is told. Everything Scalar would fetch from elsewhere is off: its web fonts (fonts.scalar.com),
 * telemetry, the developer toolbar it shows on localhost, its AI agent (on by default on localhost) and MCP panel.
 * Try-it-out calls go to the document's server (the address the page was opened at) with the bearer key the
 * person pastes; the key stays in the page (persistAuth off: never written to localStorage).
 */
const CONFIGURATION = {
  url: API_ROUTES.openapi.path,
  cdn: API_ROUTES.apiReferenceScript.path,
  pageTitle: 'Agent Studio API reference',
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  authentication: { preferredSecurityScheme: 'bearer' },
  persistAuth: false,
} as const;

/** Where the plugin answers inside the private instance (its default routePrefix, /reference): its own paths. */
const PLUGIN_PAGE = '/reference/';
const PLUGIN_SCRIPT = '/reference/js/scalar.js';

export interface ApiReferenceFiles {
  html: string;
  /** Kept as bytes: one copy outside the JS heap (the plugin's module keeps its own string of it). */
  script: Buffer;
  /** The page's Content-Security-Policy: exactly what the reference needs, computed from the page itself. */
  csp: string;
}

/**
 * Put before the bundle: the zod inside it probes whether it may compile its validators with `Function('')` (an
 * eval, which the page's policy refuses, so each visit would report a violation); zod's own switch for a policy that
 * forbids eval (`z.config({ jitless: true })`, kept on globalThis) tells it not to try. The validation is the same.
 */
const NO_EVAL_PRELUDE =
  'globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });\n';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The page's policy: scripts only from this server plus the page's inline start-up script (by its hash, so nothing
 * injected could run); styles from this server and inline (the bundle injects its style sheet and sets style
 * attributes, which no hash can name); images and fonts from this server or data: URLs; fetches only to this server
 * (the document and the try-it-out calls); never framed, no <base>, no form posts.
 */
export function apiReferenceCsp(html: string): string {
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => sha256(m[1]));
  return [
    "default-src 'none'",
    `script-src 'self' ${inline.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

async function renderFiles(): Promise<ApiReferenceFiles> {
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  const renderer = Fastify({ logger: false });
  try {
    await renderer.register(scalar, { configuration: CONFIGURATION });
    const [page, script] = await Promise.all([renderer.inject(PLUGIN_PAGE), renderer.inject(PLUGIN_SCRIPT)]);
    if (page.statusCode !== 200 || script.statusCode !== 200)
      throw new Error(`The API reference plugin answered ${page.statusCode} and ${script.statusCode}, not its files`);
    return {
      html: page.body,
      script: Buffer.concat([Buffer.from(NO_EVAL_PRELUDE), script.rawPayload]),
      csp: apiReferenceCsp(page.body),
    };
  } finally {
    await renderer.close();
  }
}

/**
 * The page and its script, rendered on the first request (the plugin's 5 MB bundle is not loaded at start), shared
 * by the requests after it; a failed render is tried again by the next request.
 */
export class ApiReferencePage {
  private readonly files = lazyModule(renderFiles);

  /** Answers `reply` with the page or its script, under the page's own headers. */
  async send(reply: FastifyReply, which: 'page' | 'script'): Promise<void> {
    const files = await this.files();
    reply
      .type(which === 'page' ? 'text/html; charset=utf-8' : 'text/javascript; charset=utf-8')
      .header('Content-Security-Policy', files.csp)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('Cross-Origin-Opener-Policy', 'same-origin')
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .header('Cache-Control', 'no-cache')
      .send(which === 'page' ? files.html : files.script);
  }
}
