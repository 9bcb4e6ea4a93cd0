// ESLint rule enforcing the layer rules of ARCHITECTURE.md:
//   src/shared    imports only zod (and other shared files)
//   src/main/core never imports electron (or the electron layer, preload, renderer)
//   src/preload   imports only electron and shared
//   src/renderer  imports only shared (plus UI packages from npm)
//   src/client    imports only shared and zod (it runs wherever fetch does); playwright-core types only in
//                 src/client/playwright.ts
import path from 'node:path';

const NODE_BUILTIN = /^node:/;

function layerOf(file) {
  const p = file.split(path.sep).join('/');
  if (p.includes('/src/shared/')) return 'shared';
  if (p.includes('/src/main/core/')) return 'core';
  if (p.includes('/src/main/electron/') || /\/src\/main\/index\.ts$/.test(p)) return 'electron';
  if (p.includes('/src/main/')) return 'main';
  if (p.includes('/src/preload/')) return 'preload';
  if (p.includes('/src/renderer/')) return 'renderer';
  if (p.includes('/src/client/')) return 'client';
  return null;
}

function check(importer, source) {
  const from = layerOf(importer);
  if (!from) return null;
  const relative = source.startsWith('.');
  const target = relative ? layerOf(path.resolve(path.dirname(importer), source)) : null;
  const pkg = relative ? null : source;
  switch (from) {
    case 'shared':
      if (relative && target !== 'shared') return 'src/shared may import only other src/shared files';
      if (pkg && pkg !== 'zod' && !pkg.startsWith('zod/')) return `src/shared may import only zod, not "${pkg}"`;
      return null;
    case 'core':
      if (pkg === 'electron' || pkg?.startsWith('electron/') || pkg === 'electron-store')
        return 'src/main/core must never import electron (it also runs headless)';
      if (relative && target && !['core', 'shared'].includes(target))
        return `src/main/core may not import from the ${target} layer`;
      return null;
    case 'preload':
      if (pkg && pkg !== 'electron') return `src/preload may import only electron and src/shared, not "${pkg}"`;
      if (relative && target && !['preload', 'shared'].includes(target))
        return `src/preload may not import from the ${target} layer`;
      return null;
    case 'renderer':
      if (
        pkg &&
        (pkg === 'electron' || NODE_BUILTIN.test(pkg) || ['fs', 'path', 'child_process', 'os', 'crypto'].includes(pkg))
      )
        return `src/renderer may not import "${pkg}" (it runs sandboxed)`;
      if (relative && target && !['renderer', 'shared'].includes(target))
        return `src/renderer may import only src/shared, not the ${target} layer`;
      return null;
    case 'client':
      if (relative && target !== 'client' && target !== 'shared')
        return 'src/client may import only src/shared and other src/client files';
      if (pkg === 'playwright-core' && /\/src\/client\/playwright\.ts$/.test(importer.split(path.sep).join('/')))
        return null;
      if (pkg && pkg !== 'zod' && !pkg.startsWith('zod/'))
        return `src/client may import only zod (and playwright-core in src/client/playwright.ts), not "${pkg}"`;
      return null;
    case 'electron':
    case 'main':
      if (relative && target && ['renderer', 'preload'].includes(target))
        return `src/main may not import from the ${target} layer`;
      return null;
    default:
      return null;
  }
}

export const layersPlugin = {
  rules: {
    boundaries: {
      meta: { type: 'problem', schema: [], docs: { description: 'Enforce the layer rules of ARCHITECTURE.md' } },
      create(context) {
        const report = (node, source) => {
          if (typeof source !== 'string') return;
          const message = check(context.filename, source);
          if (message) context.report({ node, message });
        };
        return {
          ImportDeclaration: (node) => report(node, node.source.value),
          ExportNamedDeclaration: (node) => node.source && report(node, node.source.value),
          ExportAllDeclaration: (node) => report(node, node.source.value),
          ImportExpression: (node) => node.source.type === 'Literal' && report(node, node.source.value),
          CallExpression: (node) => {
            if (
              node.callee.type === 'Identifier' &&
              node.callee.name === 'require' &&
              node.arguments[0]?.type === 'Literal'
            ) {
              report(node, node.arguments[0].value);
            }
          },
        };
      },
    },
  },
};
export { check as checkLayerImport };
