// The crash reporter as the Electron glue starts it (electron/crash-reporting.ts): dumps in `<data dir>/crashes`,
// nothing uploaded, the path set before the reporter starts, and both before the app is ready (src/main/index.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashDumpsDir, readCrashReports } from '../../../src/main/core/desktop/crash-reports.js';
import { startCrashReporting } from '../../../src/main/electron/crash-reporting.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('startCrashReporting', () => {
  it('sets crashDumps to the data folder, then starts the reporter with uploadToServer false and no server', () => {
    const calls: [string, unknown][] = [];
    const folder = startCrashReporting(
      {
        setPath: (name, value) => calls.push(['setPath', [name, value]]),
        start: (options) => calls.push(['start', options]),
      },
      '/data/agent-studio',
    );
    expect(folder).toBe(path.join('/data/agent-studio', 'crashes'));
    expect(calls).toEqual([
      ['setPath', ['crashDumps', path.join('/data/agent-studio', 'crashes')]],
      ['start', { productName: 'Agent Studio', uploadToServer: false }],
    ]);
  });

  it('is started by the Electron entry after the data folder is chosen and before the app is ready', () => {
    const entry = fs.readFileSync(path.resolve(import.meta.dirname, '../../../src/main/index.ts'), 'utf8');
    const dataDir = entry.indexOf('useDataDirFromEnv();');
    const started = entry.indexOf('startCrashReporting(');
    const ready = entry.indexOf('await app.whenReady()');
    expect(dataDir).toBeGreaterThan(-1);
    expect(started).toBeGreaterThan(dataDir);
    expect(ready).toBeGreaterThan(started);
    expect(entry.slice(started, ready)).toContain("app.getPath('userData')");
  });
});

describe('readCrashReports', () => {
  it("counts Crashpad's dumps in its report folders, and none when no crash happened yet", () => {
    const dataDir = tempDir('agent-studio-crashes-');
    try {
      const folder = crashDumpsDir(dataDir);
      expect(readCrashReports(folder)).toEqual({ folder, count: 0, newestAt: null });
      fs.mkdirSync(path.join(folder, 'completed'), { recursive: true });
      fs.mkdirSync(path.join(folder, 'pending'), { recursive: true });
      fs.writeFileSync(path.join(folder, 'completed', 'a.dmp'), 'MDMP');
      fs.writeFileSync(path.join(folder, 'pending', 'b.dmp'), 'MDMP');
      fs.writeFileSync(path.join(folder, 'settings.dat'), 'not a dump');
      const read = readCrashReports(folder);
      expect(read.count).toBe(2);
      expect(read.newestAt).toBe(fs.statSync(path.join(folder, 'pending', 'b.dmp')).mtimeMs);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
