// config.json as the desktop Settings screen writes it (src/main/core/desktop/desktop-config.ts): replaced whole, so
// the headless server and the CLI, which read it too, never see half a file; on Windows, also while an editor or
// antivirus holds the old one open for a moment.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfigFile, writeConfigFile } from '../../../src/main/core/desktop/desktop-config.js';
import { whileHeldOpen } from '../../helpers/held-open.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('writeConfigFile', () => {
  it('creates the folder and the file, then replaces it whole (a new file renamed over), leaving no temp file', () => {
    const dir = path.join(tempDir(), 'data');
    const file = path.join(dir, 'config.json');
    writeConfigFile(file, { server: { port: 4780 } });
    const inode = fs.statSync(file).ino;
    writeConfigFile(file, { server: { port: 4781 } });
    expect(fs.statSync(file).ino).not.toBe(inode);
    expect(readConfigFile(file)).toEqual({ server: { port: 4781 } });
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('on Windows, replaces a config.json another program holds open for a moment', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    writeConfigFile(file, { server: { port: 4780 } });
    const { refused } = await whileHeldOpen(
      (f) => f.endsWith('config.json'),
      5,
      () => writeConfigFile(file, { server: { port: 4781 } }),
    );
    expect(refused).toBe(5);
    expect(readConfigFile(file)).toEqual({ server: { port: 4781 } });
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });
});
