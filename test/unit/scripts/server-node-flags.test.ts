// The headless server's Node flags are declared once (scripts/server-node-flags.mjs); package.json's "serve" script
// cannot import them, so this keeps it equal.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../../scripts/server-node-flags.mjs';
import { REPO_ROOT } from '../../helpers/repo-root.js';

it('npm run serve starts the server with the same Node flags as npm start', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const node = pkg.scripts.serve.split('--then ')[1]!.split(' ');
  expect(node.slice(0, node.indexOf('--import'))).toEqual(SERVER_NODE_FLAGS);
});
