import { build, type InlineConfig } from 'vite';
import electronViteConfig from '../../../electron.vite.config.js';

/**
 * Builds the renderer exactly as `electron-vite build` does (same config object: root, plugins,
 * entry), into `outDir` instead of out/renderer, so tests never race a developer's build.
 */
export async function buildRenderer(outDir: string): Promise<void> {
  const config = electronViteConfig as { renderer?: InlineConfig };
  const renderer = config.renderer;
  if (!renderer) throw new Error('electron.vite.config.ts has no renderer section');
  await build({
    ...renderer,
    configFile: false,
    base: './',
    logLevel: 'warn',
    build: { ...renderer.build, outDir, emptyOutDir: true, minify: false, reportCompressedSize: false },
  });
}
