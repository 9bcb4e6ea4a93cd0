import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { checkLayerImport } from '../../../scripts/eslint-layers.mjs';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const root = path.resolve('/repo');
const f = (p: string) => path.join(root, p);
const check = checkLayerImport;

describe('layer rules', () => {
  it('core never imports electron', () => {
    expect(check(f('src/main/core/x.ts'), 'electron')).toMatch(/never import electron/);
    expect(check(f('src/main/core/x.ts'), '../electron/window.js')).toMatch(/electron layer/);
    expect(check(f('src/main/core/x.ts'), 'fastify')).toBeNull();
  });
  it('renderer imports only shared', () => {
    expect(check(f('src/renderer/App.tsx'), '../main/core/create-core.js')).toMatch(/only src\/shared/);
    expect(check(f('src/renderer/App.tsx'), 'node:fs')).toMatch(/sandboxed/);
    expect(check(f('src/renderer/App.tsx'), '../shared/errors.js')).toBeNull();
    expect(check(f('src/renderer/App.tsx'), 'react')).toBeNull();
  });
  it('shared imports only zod; preload only electron and shared', () => {
    expect(check(f('src/shared/a.ts'), 'fastify')).toMatch(/only zod/);
    expect(check(f('src/shared/a.ts'), 'zod')).toBeNull();
    expect(check(f('src/preload/index.ts'), 'electron')).toBeNull();
    expect(check(f('src/preload/index.ts'), 'keytar')).toMatch(/only electron/);
  });
  it('client imports only shared and zod; playwright-core only in its Playwright helper', () => {
    expect(check(f('src/client/agent-studio-client.ts'), '../shared/video.schema.js')).toBeNull();
    expect(check(f('src/client/agent-studio-client.ts'), './client-routes.js')).toBeNull();
    expect(check(f('src/client/agent-studio-client.ts'), 'zod')).toBeNull();
    expect(check(f('src/client/agent-studio-client.ts'), '../main/core/errors.js')).toMatch(/only src\/shared/);
    expect(check(f('src/client/agent-studio-client.ts'), 'node:fs')).toMatch(/only zod/);
    expect(check(f('src/client/agent-studio-client.ts'), 'playwright-core')).toMatch(/only zod/);
    expect(check(f('src/client/playwright.ts'), 'playwright-core')).toBeNull();
    expect(check(f('src/client/playwright.ts'), 'playwright-core/lib/server')).toMatch(/only zod/);
    expect(check(f('src/client/playwright.ts'), 'node:path')).toMatch(/only zod/);
  });
});

describe('eslint.config.mjs wires both layer rules', () => {
  it('layers/boundaries on all of src, layers/core-folders on src/main/core only', async () => {
    const eslint = new ESLint({ cwd: REPO_ROOT });
    const rulesFor = async (file: string) =>
      ((await eslint.calculateConfigForFile(path.join(REPO_ROOT, file))) as { rules: Record<string, unknown> }).rules;
    const coreRules = await rulesFor('src/main/core/login/sessions/login.service.ts');
    expect(coreRules['layers/boundaries']).toEqual([2]);
    expect(coreRules['layers/core-folders']).toEqual([2]);
    const rendererRules = await rulesFor('src/renderer/App.tsx');
    expect(rendererRules['layers/boundaries']).toEqual([2]);
    expect(rendererRules['layers/core-folders']).toBeUndefined();
  });
});
