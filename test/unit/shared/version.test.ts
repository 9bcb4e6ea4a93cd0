import fs from 'node:fs';
import { expect, it } from 'vitest';
import { APP_VERSION } from '../../../src/shared/version.js';

it('APP_VERSION matches package.json', () => {
  expect(APP_VERSION).toBe(JSON.parse(fs.readFileSync('package.json', 'utf8')).version);
});
