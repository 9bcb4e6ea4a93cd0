import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function tempDir(prefix = 'agent-studio-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
