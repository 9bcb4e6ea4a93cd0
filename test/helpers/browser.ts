import { chromium, type Browser } from 'playwright-core';
import { resolveBrowserExecutable } from '../../src/main/core/login/browser-resolver.js';

export const TEST_BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** A Chromium for checking results as an agent would (separate from the server's pool). */
export function launchTestBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: resolveBrowserExecutable({}).path, args: TEST_BROWSER_ARGS });
}
