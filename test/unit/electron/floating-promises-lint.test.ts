// The lint rule that keeps the Electron shell from leaving promises un-awaited (eslint.config.mjs): Electron's
// clipboard, dialogs and loadURL return promises, and one left floating says "done" before it is, and fails as an
// unhandled rejection. Checked with ESLint itself on the config the repository uses.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const FLOATING = `import { clipboard } from 'electron';
export function copy(text: string): void {
  clipboard.writeText(text);
}
`;
const HANDLED = `import { clipboard } from 'electron';
export async function copy(text: string): Promise<void> {
  await clipboard.writeText(text);
  void clipboard.readText();
  clipboard.writeText(text).catch(() => undefined);
}
`;

async function ruleHits(code: string, filePath: string): Promise<number> {
  const [result] = await new ESLint({ cwd: REPO_ROOT }).lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-floating-promises').length;
}

describe('@typescript-eslint/no-floating-promises in the Electron shell', () => {
  it('flags an un-awaited clipboard write in src/main/electron and src/main/index.ts', async () => {
    expect(await ruleHits(FLOATING, 'src/main/electron/tray.ts')).toBe(1);
    expect(await ruleHits(FLOATING, 'src/main/index.ts')).toBe(1);
  }, 120_000);

  it('accepts an awaited, a voided and a caught promise; and stays off outside the shell', async () => {
    expect(await ruleHits(HANDLED, 'src/main/electron/tray.ts')).toBe(0);
    expect(await ruleHits(FLOATING, 'src/main/cli.ts')).toBe(0);
  }, 120_000);
});
