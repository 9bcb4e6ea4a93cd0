// Functions the engine hands to Playwright to run in a page (evaluate, waitForFunction, evaluateHandle, $eval) are
// sent as their source text. Under tsx — how `npm run cli` and `npm run mcp` run the core — esbuild's keepNames wraps
// every named function or class inside them in `__name(...)`, a helper the page does not have, so the call throws
// there (and only there: vitest's transform keeps no names). A named function inside such a function is refused here;
// runInFrame's scripts (page-script.ts) get a `__name` shim and are not Playwright's own calls.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');
const PAGE_CALLS = new Set(['evaluate', 'waitForFunction', 'evaluateHandle', '$eval', '$$eval', 'evaluateAll']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Named functions and classes inside `fn` (what keepNames would wrap in __name), as "name at line". */
function namedInside(fn: ts.Node, file: ts.SourceFile): string[] {
  const found: string[] = [];
  const at = (n: ts.Node) => file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1;
  const visit = (n: ts.Node): void => {
    if ((ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n) || ts.isClassExpression(n)) && n.name)
      found.push(`${n.name.text} at line ${at(n)}`);
    if (
      ts.isVariableDeclaration(n) &&
      ts.isIdentifier(n.name) &&
      n.initializer &&
      (ts.isArrowFunction(n.initializer) ||
        ts.isFunctionExpression(n.initializer) ||
        ts.isClassExpression(n.initializer))
    )
      found.push(`${n.name.text} at line ${at(n)}`);
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(fn, visit);
  return found;
}

describe('functions run in a page by Playwright', () => {
  it('hold no named function or class (tsx would wrap it in __name, which the page lacks)', () => {
    const offences: string[] = [];
    let checked = 0;
    for (const file of sourceFiles(path.join(root, 'src/main'))) {
      const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (n: ts.Node): void => {
        if (
          ts.isCallExpression(n) &&
          ts.isPropertyAccessExpression(n.expression) &&
          PAGE_CALLS.has(n.expression.name.text)
        ) {
          for (const arg of n.arguments) {
            if (!ts.isArrowFunction(arg) && !ts.isFunctionExpression(arg)) continue;
            checked++;
            for (const name of namedInside(arg, sf)) offences.push(`${path.relative(root, file)}: ${name}`);
          }
        }
        ts.forEachChild(n, visit);
      };
      visit(sf);
    }
    expect(checked).toBeGreaterThan(5);
    expect(offences).toEqual([]);
  });
});
