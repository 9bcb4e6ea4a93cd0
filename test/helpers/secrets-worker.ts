/**
 * One process of the multi-process secret-store test (test/unit/secrets/secrets-multiprocess.test.ts):
 * `node --import tsx secrets-worker.ts DATA_DIR ID COUNT WORKERS`. Takes the master key from the key
 * file (created by whichever worker comes first), makes the shared create-once secret, writes COUNT
 * accounts of its own (and adds and deletes a few more), prints `{"phase":"written"}`, then on a
 * `verify` line on stdin reads every worker's accounts and prints what it found. Values: valueOf below,
 * repeated in the test.
 */
import path from 'node:path';
import readline from 'node:readline';
import { EncryptedFileSecretStore } from '../../src/main/core/secrets/encrypted-file-store.js';
import { readOrCreateMasterKeyFile } from '../../src/main/core/secrets/master-key-file.js';

const valueOf = (worker: number, i: number) => `value-${worker}-${i}-${'x'.repeat(i % 7)}`;

const [dataDir, idArg, countArg, workersArg] = process.argv.slice(2);
const id = Number(idArg);
const count = Number(countArg);
const workers = Number(workersArg);

const { key } = readOrCreateMasterKeyFile(dataDir);
const store = new EncryptedFileSecretStore(path.join(dataDir, 'secrets.enc.json'), key);
const shared = await store.setIfAbsent('shared', `from-worker-${id}`);
let ownMisses = 0;
for (let i = 0; i < count; i++) {
  await store.set(`w${id}:${i}`, valueOf(id, i));
  if (i % 10 === 0) {
    await store.set(`tmp${id}:${i}`, 'short-lived');
    await store.delete(`tmp${id}:${i}`);
  }
  // What this process just wrote must be there when it reads back (no other writer may undo it).
  if (i % 25 === 0 && (await store.get(`w${id}:${i}`)) !== valueOf(id, i)) ownMisses++;
}
process.stdout.write(`${JSON.stringify({ phase: 'written', shared, key })}\n`);

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== 'verify') continue;
  let missing = 0;
  for (let w = 0; w < workers; w++) {
    for (let i = 0; i < count; i++) if ((await store.get(`w${w}:${i}`)) !== valueOf(w, i)) missing++;
  }
  const leftovers = (await store.listAccounts('tmp')).length;
  const sharedNow = await store.get('shared');
  process.stdout.write(`${JSON.stringify({ phase: 'verified', missing, leftovers, ownMisses, shared: sharedNow })}\n`);
  break;
}
lines.close();
