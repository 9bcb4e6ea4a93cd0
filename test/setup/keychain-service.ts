// vitest globalSetup: the suite's keychain items never mix with the person's own, and none are left behind.
// On Linux `npm test` runs inside scripts/with-keyring.sh, a throwaway Secret Service that vanishes with the run. On
// macOS and Windows there is no such thing: a test server's `auto` backend reaches the person's real Keychain or
// Credential Manager, whose `agent-studio` service is where the installed app keeps its items. So the run gets a
// service of its own (AGENT_STUDIO_SECRETS_SERVICE, the default of `secrets.service` in every config parsed: test
// servers, cores a test builds itself, the CLI and headless servers it starts), and its items are deleted at the end.
import { createRequire } from 'node:module';

type Keytar = {
  findCredentials(service: string): Promise<{ account: string }[]>;
  deletePassword(service: string, account: string): Promise<boolean>;
};

/** The keychain service of a test run: a fixed prefix the person can recognise, and the run's process id. */
export function testKeychainService(pid: number = process.pid): string {
  return `agent-studio-test-${pid}`;
}

/**
 * Deletes every item of `service`. Only a test run's own service: a mistake here must never empty the app's. Returns
 * how many went; 0 where the keychain cannot be reached (nothing was written there either).
 */
export async function removeTestKeychainItems(service: string): Promise<number> {
  if (!/^agent-studio-test-/.test(service)) throw new Error(`not a test run's keychain service: ${service}`);
  let keytar: Keytar;
  try {
    keytar = createRequire(import.meta.url)('keytar') as Keytar;
  } catch {
    return 0;
  }
  try {
    const items = await keytar.findCredentials(service);
    for (const { account } of items) await keytar.deletePassword(service, account);
    return items.length;
  } catch {
    return 0; // no keychain (no D-Bus session on Linux): nothing to remove
  }
}

export default function setup(): (() => Promise<void>) | void {
  // A run that names its own service (a developer's choice, or a nested vitest of the suite's tests) keeps it.
  if (process.env.AGENT_STUDIO_SECRETS_SERVICE) return;
  const service = testKeychainService();
  // Set before the workers start: they, and every process they start, inherit it.
  process.env.AGENT_STUDIO_SECRETS_SERVICE = service;
  return async () => {
    await removeTestKeychainItems(service);
  };
}
