// ESLint rule enforcing the layer rules of docs/architecture.md:
//   src/shared    imports only zod (and other shared files)
//   src/main/core never imports electron (or the electron layer, preload, renderer)
//   src/preload   imports only electron and shared
//   src/renderer  imports only shared (plus UI packages from npm)
//   src/client    imports only shared and zod (it runs wherever fetch does); playwright-core types only in
//                 src/client/playwright.ts
// and a second rule, `core-folders`, for the folders inside src/main/core: which may import which is declared
// once, in the allow-list of scripts/core-deps.mjs.
import path from 'node:path';
import { CORE_DEPS, ROUTE_LIST, ROUTE_MODULE, ROUTE_MODULE_MAY_ALSO_IMPORT } from './core-deps.mjs';

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

// ---- layers/core-folders: the allow-list of scripts/core-deps.mjs ----

const ALLOW_LIST_FILE = 'scripts/core-deps.mjs';
const CORE_MARK = '/src/main/core/';

/** The path of `file` relative to src/main/core ('login/engine/deadline.ts'), or null outside the core. */
function coreRelative(file) {
  const p = file.split(path.sep).join('/');
  const at = p.lastIndexOf(CORE_MARK);
  return at === -1 ? null : p.slice(at + CORE_MARK.length);
}

/** The unit of CORE_DEPS a core path belongs to: the longest key equal to it or a folder above it. */
function coreUnitOf(rel, table = CORE_DEPS) {
  let best = null;
  for (const key of Object.keys(table)) {
    if ((rel === key || rel.startsWith(`${key}/`)) && (!best || key.length > best.length)) best = key;
  }
  return best;
}

const label = (unit) => (/\.[cm]?[jt]sx?$/.test(unit) ? unit : `${unit}/`);

/**
 * Checks one import of a file of src/main/core against the allow-list; returns a message or null.
 * `source` is the import specifier as written; only relative ones that land inside the core are checked.
 */
function checkCore(importer, source, table = CORE_DEPS) {
  const from = coreRelative(importer);
  if (from === null || typeof source !== 'string' || !source.startsWith('.')) return null;
  const resolved = path.resolve(path.dirname(importer), source);
  const toPath = coreRelative(resolved);
  if (toPath === null || toPath === '') return null;
  // `.js` specifiers name the `.ts` sources; an extension-less one may name a .ts file or a folder
  const to = toPath.replace(/\.js$/, '.ts').replace(/\.jsx$/, '.tsx');
  const fromUnit = coreUnitOf(from, table);
  const toUnit = coreUnitOf(to, table) ?? coreUnitOf(`${to}.ts`, table);
  if (!fromUnit)
    return `src/main/core/${from} belongs to no folder of the core allow-list (${ALLOW_LIST_FILE}): add its folder there with what it may import`;
  if (!toUnit)
    return `src/main/core/${to} belongs to no folder of the core allow-list (${ALLOW_LIST_FILE}): add its folder there before importing it`;
  if (fromUnit !== toUnit) {
    const allowed = new Set(table[fromUnit]);
    // a route module may also import the HTTP layer (scripts/core-deps.mjs, ROUTE_MODULE_MAY_ALSO_IMPORT), never more
    // of its feature than its own folder may: it takes the parts it uses as arguments, so it never points back up
    if (ROUTE_MODULE.test(from)) for (const key of ROUTE_MODULE_MAY_ALSO_IMPORT) allowed.add(key);
    if (!allowed.has('*') && !allowed.has(toUnit))
      return `core folder '${label(fromUnit)}' may not import '${label(toUnit)}' (${to}): not in the allow-list of '${label(fromUnit)}' in ${ALLOW_LIST_FILE}`;
  }
  if (ROUTE_MODULE.test(to) && from !== ROUTE_LIST)
    return `core folder '${label(fromUnit)}' may not import the route module ${to}: only the route list (src/main/core/${ROUTE_LIST}) imports route modules (${ALLOW_LIST_FILE})`;
  return null;
}

/** Calls `report(node, specifier)` for every import, re-export, dynamic import, import type and require. */
function importVisitors(report) {
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
}

export const layersPlugin = {
  rules: {
    boundaries: {
      meta: { type: 'problem', schema: [], docs: { description: 'Enforce the layer rules of docs/architecture.md' } },
      create(context) {
        return importVisitors((node, source) => {
          if (typeof source !== 'string') return;
          const message = check(context.filename, source);
          if (message) context.report({ node, message });
        });
      },
    },
    'core-folders': {
      meta: {
        type: 'problem',
        schema: [],
        docs: { description: `Enforce which folder of src/main/core may import which (${ALLOW_LIST_FILE})` },
      },
      create(context) {
        const report = (node, source) => {
          const message = checkCore(context.filename, source);
          if (message) context.report({ node, message });
        };
        return {
          ...importVisitors(report),
          // `import('./x.js').T` in a type position
          TSImportType: (node) => {
            // typescript-eslint 8.x: `source`; older ones: `argument` (a TSLiteralType)
            const lit = node.source ?? (node.argument?.type === 'TSLiteralType' ? node.argument.literal : null);
            if (lit?.type === 'Literal') report(node, lit.value);
          },
          // `import x = require('./x.js')`
          TSExternalModuleReference: (node) =>
            node.expression.type === 'Literal' && report(node, node.expression.value),
        };
      },
    },
  },
};
export { check as checkLayerImport, checkCore as checkCoreImport, coreUnitOf };
