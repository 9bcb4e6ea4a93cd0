// Your browsers: a Windows Chrome or Brave profile carries one line saying its cookies are app-bound (v20, readable
// only by the browser itself, docs/own-browsers-and-passkeys.md#what-each-os-allows). Windows cannot run here, so
// the decision is checked with the profile paths each OS gives.
import { describe, expect, it } from 'vitest';
import { appBoundNote } from '../../../src/renderer/features/browser-profiles/profile-format.js';

describe('the app-bound line on Windows profiles', () => {
  it.each([
    ['chrome', 'C:\\Users\\Ada\\AppData\\Local\\Google\\Chrome\\User Data\\Default', true],
    ['brave', 'D:\\Users\\Ada\\AppData\\Local\\BraveSoftware\\Brave-Browser\\User Data\\Profile 1', true],
    ['chrome', '\\\\fileserver\\home\\ada\\AppData\\Local\\Google\\Chrome\\User Data\\Default', true],
    ['edge', 'C:\\Users\\Ada\\AppData\\Local\\Microsoft\\Edge\\User Data\\Default', false],
    ['firefox', 'C:\\Users\\Ada\\AppData\\Roaming\\Mozilla\\Firefox\\Profiles\\x.default', false],
    ['chrome', '/home/ada/.config/google-chrome/Default', false],
    ['chrome', '/Users/ada/Library/Application Support/Google/Chrome/Default', false],
  ] as const)('%s at %s: %s', (browser, path, shown) => {
    const note = appBoundNote({ browser, path });
    if (!shown) return expect(note).toBeNull();
    expect(note).toMatch(/on Windows locks its cookies to itself \(app-bound encryption\)/);
    expect(note).toContain('Sign in with Agent Studio instead');
  });
});
