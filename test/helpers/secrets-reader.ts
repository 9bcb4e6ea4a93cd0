/**
 * What another process (a CLI run) reads from a data dir's secret store, opened exactly as the CLI
 * opens it: `node --import tsx secrets-reader.ts DATA_DIR ORG...` prints one JSON line with every
 * mailbox's password (null when missing) and the webhook signing secret of each ORG named.
 */
import { loadConfig } from '../../src/main/core/config/load-config.js';
import { createCore } from '../../src/main/core/create-core.js';

const [dataDir, ...orgNames] = process.argv.slice(2);
const core = createCore(loadConfig({ dataDir }));
try {
  const service = core.login.mailboxes.service;
  const mailboxes: Record<string, string | null> = {};
  for (const m of service.listAll()) mailboxes[m.id] = await service.password(m).catch(() => null);
  const webhooks: Record<string, string> = {};
  for (const name of orgNames) {
    const org = core.orgs.resolve(name);
    if (org) webhooks[name] = (await core.video.webhooks.service.secret(org.id)).secret;
  }
  process.stdout.write(`${JSON.stringify({ backend: core.secrets.backend, mailboxes, webhooks })}\n`);
} finally {
  await core.dispose();
}
