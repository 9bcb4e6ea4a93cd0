import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../src/main/core/config/app-paths.js';
import { ConfigError, loadConfig, parseConfig } from '../../../src/main/core/config/load-config.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('config', () => {
  it('has documented defaults', () => {
    const dir = tempDir();
    const c = loadConfig({ dataDir: dir }, {});
    expect(c.server).toMatchObject({ host: '127.0.0.1', port: 4780 });
    expect(c.server.rateLimit).toEqual({ perKeyPerSecond: 100, perKeyBurst: 200, unauthenticatedPerMinute: 60 });
    expect(c.browser.maxContexts).toBe(4);
    expect(c.browser.blockResources).toBe(true);
    expect(c.login.timeoutMs).toBe(60_000);
    expect(c.secrets.backend).toBe('auto');
    expect(c.dataDir).toBe(dir);
  });

  it('layers file < env < explicit overrides', () => {
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, 'config.json'),
      JSON.stringify({ server: { port: 5000 }, browser: { maxContexts: 2 } }),
    );
    expect(loadConfig({ dataDir: dir }, {}).server.port).toBe(5000);
    expect(loadConfig({ dataDir: dir }, { AGENT_STUDIO_PORT: '5001' }).server.port).toBe(5001);
    expect(loadConfig({ dataDir: dir, port: 5002 }, { AGENT_STUDIO_PORT: '5001' }).server.port).toBe(5002);
    expect(loadConfig({}, { AGENT_STUDIO_DATA_DIR: dir }).browser.maxContexts).toBe(2);
    expect(loadConfig({ dataDir: dir }, { AGENT_STUDIO_SECRETS_SERVICE: 'agent-studio-dev' }).secrets.service).toBe(
      'agent-studio-dev',
    );
  });

  it('the keychain service: secrets.service, else AGENT_STUDIO_SECRETS_SERVICE, else agent-studio, in every parse', () => {
    const saved = process.env.AGENT_STUDIO_SECRETS_SERVICE; // the test run's own (test/setup/keychain-service.ts)
    try {
      delete process.env.AGENT_STUDIO_SECRETS_SERVICE;
      expect(parseConfig({ dataDir: tempDir() }).secrets.service).toBe('agent-studio');
      process.env.AGENT_STUDIO_SECRETS_SERVICE = 'agent-studio-second';
      expect(parseConfig({ dataDir: tempDir() }).secrets.service).toBe('agent-studio-second');
      expect(parseConfig({ dataDir: tempDir(), secrets: { service: 'mine' } }).secrets.service).toBe('mine');
    } finally {
      if (saved === undefined) delete process.env.AGENT_STUDIO_SECRETS_SERVICE;
      else process.env.AGENT_STUDIO_SECRETS_SERVICE = saved;
    }
  });

  it('refuses a non-loopback host, bad numbers and broken JSON with clear messages', () => {
    const dir = tempDir();
    expect(() => loadConfig({ dataDir: dir, host: '0.0.0.0' }, {})).toThrow(/loopback/);
    expect(() => loadConfig({ dataDir: dir }, { AGENT_STUDIO_PORT: 'eighty' })).toThrow(ConfigError);
    fs.writeFileSync(path.join(dir, 'config.json'), '{ nope');
    expect(() => loadConfig({ dataDir: dir }, {})).toThrow(/not valid JSON/);
  });

  it('defaults the data dir to the OS app-data folder of "Agent Studio"', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Agent Studio');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toContain('Agent Studio');
    expect(defaultDataDir({}, 'darwin')).toMatch(/Library\/Application Support\/Agent Studio$/);
  });
});
