/**
 * One process of the keychain listing race test (test/integration/secrets/keychain-listing-race.test.ts):
 * `node --import tsx keychain-lister.ts SERVICE COUNT PLATFORM` lists SERVICE's accounts COUNT times through
 * KeytarSecretStore (PLATFORM picks its listing path: 'linux' the Secret Service over D-Bus, any other keytar's own)
 * and prints one JSON line: how many listings it made and every account it saw. A listing that crashes the process
 * shows as its exit signal.
 */
import { KeytarSecretStore } from '../../src/main/core/secrets/keytar-store.js';

const [service, countArg, platform] = process.argv.slice(2);
const store = new KeytarSecretStore(service!, undefined, platform as NodeJS.Platform);
const seen = new Set<string>();
let listings = 0;
for (let i = 0; i < Number(countArg); i++) {
  for (const account of await store.listAccounts('')) seen.add(account);
  listings++;
}
process.stdout.write(`${JSON.stringify({ listings, seen: [...seen].sort() })}\n`);
