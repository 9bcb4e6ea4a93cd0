// The ESLint rule `layers/core-folders` (scripts/eslint-layers.mjs) and its allow-list (scripts/core-deps.mjs):
// which folder of src/main/core may import which.
import fs from 'node:fs';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { CORE_DEPS } from '../../../scripts/core-deps.mjs';
import { checkCoreImport, coreUnitOf, layersPlugin } from '../../../scripts/eslint-layers.mjs';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const core = (p: string) => path.join('/repo/src/main/core', p);
const check = (importer: string, source: string) => checkCoreImport(core(importer), source);

describe('core folder allow-list (scripts/core-deps.mjs)', () => {
  it('the message names the importer folder, the imported folder and the allow-list', () => {
    const message = check('login/login.routes.ts', '../video/uploads/uploads.service.js');
    expect(message).toContain("'login/'");
    expect(message).toContain("'video/uploads/'");
    expect(message).toContain('scripts/core-deps.mjs');
  });

  it('features never import each other, nor mcp, desktop or the composition', () => {
    expect(check('login/login.routes.ts', '../video/uploads/uploads.service.js')).toMatch(
      /'login\/'.*'video\/uploads\/'/,
    );
    expect(check('video/generations/generate.service.ts', '../../login/sessions/login.service.js')).toMatch(
      /'login\/sessions\/'/,
    );
    expect(check('login/login.feature.ts', '../create-core.js')).toMatch(/'create-core\.ts'/);
    expect(check('video/video.feature.ts', '../routes.js')).toMatch(/'routes\.ts'/);
    expect(check('login/login.routes.ts', '../run-server.js')).toMatch(/'run-server\.ts'/);
    expect(check('video/uploads/uploads.service.ts', '../../mcp/mcp-server.js')).toMatch(/'mcp\/'/);
    expect(check('login/signup/index.ts', '../../desktop/core-host.js')).toMatch(/'desktop\/'/);
  });

  it('features may import base-core.ts, http and the low level', () => {
    expect(check('login/login.feature.ts', '../base-core.js')).toBeNull();
    expect(check('video/video.feature.ts', '../base-core.js')).toBeNull();
    expect(check('video/templates/templates.routes.ts', '../../http/route.js')).toBeNull();
    expect(check('login/mailboxes/mailboxes.routes.ts', '../../http/route.js')).toBeNull();
    expect(check('video/generations/generate.service.ts', '../../jobs/job-queue.js')).toBeNull();
    expect(check('login/sessions/session-cache.ts', '../../db/database.js')).toBeNull();
    expect(check('login/sessions/session-cache.ts', '../../secrets/aead.js')).toBeNull();
    expect(check('video/uploads/uploads.service.ts', '../../errors.js')).toBeNull();
  });

  it('http never imports a feature nor the composition', () => {
    expect(check('http/modules/index.ts', '../../login/login.routes.js')).toMatch(/'http\/' may not import 'login\/'/);
    expect(check('http/build-server.ts', '../video/uploads/media-types.js')).toMatch(/'video\/uploads\/'/);
    expect(check('http/build-server.ts', '../mcp/mcp-server.js')).toMatch(/'mcp\/'/);
    expect(check('http/build-server.ts', '../create-core.js')).toMatch(/'create-core\.ts'/);
    expect(check('http/build-server.ts', '../routes.js')).toMatch(/'routes\.ts'/);
    expect(check('http/plugins/auth.ts', '../../tenancy/api-keys.service.js')).toBeNull();
    expect(check('http/build-server.ts', '../base-core.js')).toBeNull();
    expect(check('http/route.ts', '../errors.js')).toBeNull();
  });

  it('the kernel and the low level never import upwards', () => {
    expect(check('logger.ts', './config/config.schema.js')).toMatch(/'logger\.ts' may not import 'config\/'/);
    expect(check('errors.ts', './http/route.js')).toMatch(/'http\/'/);
    expect(check('logger.ts', './errors.js')).toBeNull();
    expect(check('errors.ts', './logger.js')).toMatch(/'errors\.ts' may not import 'logger\.ts'/);
    expect(check('db/database.ts', '../http/route.js')).toMatch(/'db\/' may not import 'http\/'/);
    expect(check('config/load-config.ts', '../db/database.js')).toMatch(/'config\/' may not import 'db\/'/);
    expect(check('tenancy/orgs.service.ts', '../login/sessions/login.service.js')).toMatch(/'login\/sessions\/'/);
    expect(check('jobs/job-queue.ts', '../base-core.js')).toMatch(/'base-core\.ts'/);
    expect(check('secrets/create-secret-store.ts', '../db/settings.repo.js')).toBeNull();
    expect(check('net/outbound-policy.ts', '../config/config.schema.js')).toBeNull();
    expect(check('jobs/jobs.repo.ts', '../ids.js')).toBeNull();
  });

  it('base-core.ts sits below the features', () => {
    expect(check('base-core.ts', './login/login.feature.js')).toMatch(
      /'base-core\.ts' may not import 'login\/login\.feature\.ts'/,
    );
    expect(check('base-core.ts', './create-core.js')).toMatch(/'create-core\.ts'/);
    expect(check('base-core.ts', './secrets/secret-store.js')).toBeNull();
  });

  it('inside login: engine stays below routes, lifecycle, signup and mailboxes; codes below mailboxes', () => {
    expect(check('login/engine/form-finder.ts', '../login.routes.js')).toMatch(
      /'login\/engine\/' may not import 'login\/'/,
    );
    expect(check('login/engine/form-finder.ts', '../lifecycle/index.js')).toMatch(/'login\/lifecycle\/'/);
    expect(check('login/engine/form-finder.ts', '../signup/signup-flow.js')).toMatch(/'login\/signup\/'/);
    expect(check('login/engine/form-finder.ts', '../mailboxes/index.js')).toMatch(/'login\/mailboxes\/'/);
    expect(check('login/engine/outcome-detector.ts', '../login-types.js')).toBeNull();
    expect(check('login/engine/outcome-detector.ts', './deadline.js')).toBeNull();
    expect(check('login/steps/code.step.ts', '../engine/form-finder.js')).toBeNull();
    expect(check('login/steps/code.step.ts', '../codes/find-code.js')).toBeNull();
    expect(check('login/codes/code-sources.ts', '../mailboxes/mailbox-feed.js')).toMatch(/'login\/codes\/'/);
    expect(check('login/mailboxes/mailbox-feed.ts', '../codes/code-sources.js')).toBeNull();
    expect(check('login/signup/signup-flow.ts', '../engine/form-finder.js')).toBeNull();
    expect(check('login/login.feature.ts', './signup/index.js')).toBeNull();
    // the sub-parts of login never import the feature's assembly
    expect(check('login/lifecycle/index.ts', '../login.feature.js')).toMatch(/'login\/login\.feature\.ts'/);
  });

  it('a route module takes the parts it uses: its folder allow-list, http and base-core.ts, never the feature assembly', () => {
    expect(check('login/lifecycle/lifecycle.routes.ts', '../../http/route.js')).toBeNull();
    expect(check('login/lifecycle/lifecycle.routes.ts', './index.js')).toBeNull();
    expect(check('video/credits.routes.ts', '../base-core.js')).toBeNull();
    // the dependency back up to the feature's assembly (a route module importing LoginCore) is refused
    expect(check('login/lifecycle/lifecycle.routes.ts', '../login.feature.js')).toMatch(
      /'login\/lifecycle\/' may not import 'login\/login\.feature\.ts'/,
    );
    expect(check('video/uploads/uploads.routes.ts', '../video.feature.js')).toMatch(
      /'video\/uploads\/' may not import 'video\/'/,
    );
    // nor a room its own folder may not import
    expect(check('login/signup/signup.routes.ts', '../mailboxes/index.js')).toMatch(/'login\/mailboxes\/'/);
    // nor another feature, nor the composition, nor another route module
    expect(check('login/lifecycle/lifecycle.routes.ts', '../../video/video.feature.js')).toMatch(/'video\/'/);
    expect(check('video/uploads/uploads.routes.ts', '../../create-core.js')).toMatch(/'create-core\.ts'/);
    expect(check('login/lifecycle/lifecycle.routes.ts', '../login.routes.js')).toMatch(/'login\/'/);
  });

  it('only the route list imports route modules', () => {
    expect(check('routes.ts', './login/login.routes.js')).toBeNull();
    expect(check('routes.ts', './video/uploads/uploads.routes.js')).toBeNull();
    expect(check('video/video.feature.ts', './credits.routes.js')).toMatch(/route module video\/credits\.routes\.ts/);
    expect(check('video/pipeline/render-job.ts', '../generations/generate.routes.js')).toMatch(/'video\/pipeline\/'/);
    expect(check('http/build-server.ts', './modules/system/system.routes.js')).toMatch(/only the route list/);
    expect(check('create-core.ts', './login/login.routes.js')).toMatch(/only the route list/);
  });

  it('mcp and desktop use http and the core types, never a feature; the composition imports anything', () => {
    expect(check('mcp/mcp.routes.ts', '../http/plugins/auth.js')).toBeNull();
    expect(check('desktop/core-host.ts', '../create-core.js')).toBeNull();
    expect(check('desktop/results-channels.ts', '../video/uploads/storage/blob-store.js')).toMatch(/'desktop\/'/);
    expect(check('mcp/mcp-upload.ts', '../video/uploads/uploads.service.js')).toMatch(/'mcp\/'/);
    // The one part of a feature MCP uses: type detection from a file's first bytes (a leaf, importing no feature).
    expect(check('mcp/mcp-upload.ts', '../video/uploads/media-sniffer.js')).toBeNull();
    expect(check('create-core.ts', './video/video.feature.js')).toBeNull();
    expect(check('run-server.ts', './routes.js')).toBeNull();
  });

  it('ignores imports that leave the core, packages, and files outside the core', () => {
    expect(check('login/login.routes.ts', '../../../shared/login.schema.js')).toBeNull();
    expect(check('login/login.routes.ts', 'playwright-core')).toBeNull();
    expect(checkCoreImport('/repo/src/main/electron/window.ts', '../core/login/sessions/login.service.js')).toBeNull();
  });

  it('reports files and folders that the allow-list does not know', () => {
    expect(check('brand-new/thing.ts', '../errors.js')).toMatch(/no folder of the core allow-list/);
    expect(check('login/login.routes.ts', '../brand-new/thing.js')).toMatch(/no folder of the core allow-list/);
  });

  it('a file belongs to the longest key that contains it', () => {
    expect(coreUnitOf('login/engine/form-finder.ts')).toBe('login/engine');
    expect(coreUnitOf('login/login-types.ts')).toBe('login/login-types.ts');
    expect(coreUnitOf('login/login.routes.ts')).toBe('login');
    expect(coreUnitOf('login/sessions/login.service.ts')).toBe('login/sessions');
    expect(coreUnitOf('video/pipeline/providers/fal.provider.ts')).toBe('video/pipeline');
    expect(coreUnitOf('errors.ts')).toBe('errors.ts');
    expect(coreUnitOf('unknown.ts')).toBeNull();
  });

  it('every unit named in the table is a key of it', () => {
    const keys = new Set(Object.keys(CORE_DEPS));
    for (const [unit, allowed] of Object.entries(CORE_DEPS))
      for (const dep of allowed) expect(dep === '*' || keys.has(dep), `${unit} -> ${dep}`).toBe(true);
  });

  it('the allow-list has no circles', () => {
    const circles: string[] = [];
    const seen = new Set<string>();
    const walk = (unit: string, trail: string[]) => {
      if (trail.includes(unit)) {
        circles.push([...trail.slice(trail.indexOf(unit)), unit].join(' -> '));
        return;
      }
      if (seen.has(unit)) return;
      for (const dep of CORE_DEPS[unit] ?? []) if (dep !== '*' && dep !== unit) walk(dep, [...trail, unit]);
      seen.add(unit);
    };
    for (const unit of Object.keys(CORE_DEPS)) walk(unit, []);
    expect(circles).toEqual([]);
  });

  it('every file of src/main/core belongs to a unit of the table', () => {
    const root = path.join(REPO_ROOT, 'src', 'main', 'core');
    const files = fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    const orphans = files.map((f) => f.split(path.sep).join('/')).filter((f) => !coreUnitOf(f));
    expect(orphans).toEqual([]);
  });
});

describe('the ESLint rule layers/core-folders', () => {
  const linter = new Linter({ configType: 'flat', cwd: '/repo' });
  const lint = (file: string, code: string) =>
    linter
      .verify(
        code,
        [
          {
            files: ['**/*.ts'],
            languageOptions: { parser: tseslint.parser },
            plugins: { layers: layersPlugin },
            rules: { 'layers/core-folders': 'error' },
          },
        ],
        { filename: core(file) },
      )
      .map((m) => m.message);

  const FORBIDDEN =
    "core folder 'login/' may not import 'video/uploads/' (video/uploads/x.ts): not in the allow-list of 'login/' in scripts/core-deps.mjs";

  it('checks imports, type imports, re-exports, import() and import("x").T alike', () => {
    const file = 'login/login.routes.ts';
    expect(lint(file, "import { a } from '../video/uploads/x.js';")).toEqual([FORBIDDEN]);
    expect(lint(file, "import type { A } from '../video/uploads/x.js';")).toEqual([FORBIDDEN]);
    expect(lint(file, "import { type A } from '../video/uploads/x.js';")).toEqual([FORBIDDEN]);
    expect(lint(file, "export type { A } from '../video/uploads/x.js';")).toEqual([FORBIDDEN]);
    expect(lint(file, "export * from '../video/uploads/x.js';")).toEqual([FORBIDDEN]);
    expect(lint(file, "export const m = () => import('../video/uploads/x.js');")).toEqual([FORBIDDEN]);
    expect(lint(file, "export type A = import('../video/uploads/x.js').A;")).toEqual([FORBIDDEN]);
    expect(lint(file, "import type { A } from '../http/route.js';\nimport { B } from './login-types.js';")).toEqual([]);
  });
});
