import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JS module without types
import { checkLayerImport } from '../../../scripts/eslint-layers.mjs';

const root = path.resolve('/repo');
const f = (p: string) => path.join(root, p);
const check = checkLayerImport as (importer: string, source: string) => string | null;

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
