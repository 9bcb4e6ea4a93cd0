// The suite never writes into the person's own keychain service (issue "Runs where its users are"): the run has a
// keychain service of its own (test/setup/keychain-service.ts), test servers put their items under it, and the
// run's end removes them. Checked here in the throwaway Secret Service of scripts/with-keyring.sh.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { keyringAvailable } from '../../helpers/requires.js';
import { startTestServer } from '../../helpers/test-server.js';
import { removeTestKeychainItems, testKeychainService } from '../../setup/keychain-service.js';

type Keytar = {
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
  setPassword(service: string, account: string, password: string): Promise<void>;
};

describe.runIf(keyringAvailable())("the test run's own keychain service", () => {
  const keytar = createRequire(import.meta.url)('keytar') as Keytar;

  it('is set for the whole run, and a test server keeps its keychain items there, none under agent-studio', async () => {
    const service = process.env.AGENT_STUDIO_SECRETS_SERVICE;
    expect(service).toMatch(/^agent-studio-test-\d+$/);
    const t = await startTestServer({ secrets: { backend: 'keychain' } });
    try {
      expect(t.core.config.secrets.service).toBe(service);
      // a saved login makes the vault's key, which the keychain keeps
      const saved = await t.request('/api/credentials', {
        method: 'POST',
        json: { label: 'k', loginUrl: 'http://127.0.0.1:9/login', username: 'a', password: 'p' },
      });
      expect(saved.status).toBe(201);
      const installId = (await keytar.findCredentials(service!)).map((i) => i.account.split(':')[0]);
      expect(installId.length).toBeGreaterThan(0);
      const ours = new Set(installId);
      const inAppService = await keytar.findCredentials('agent-studio');
      expect(inAppService.filter((i) => ours.has(i.account.split(':')[0]))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("the run's end removes every item of a test service, and refuses any other service", async () => {
    const service = testKeychainService(999_999);
    await keytar.setPassword(service, 'install:one', 'v1');
    await keytar.setPassword(service, 'install:two', 'v2');
    expect(await removeTestKeychainItems(service)).toBe(2);
    expect(await keytar.findCredentials(service)).toEqual([]);
    await expect(removeTestKeychainItems('agent-studio')).rejects.toThrow(/not a test run's keychain service/);
  });
});
