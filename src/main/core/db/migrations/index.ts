import { m0001 } from './0001-init.js';
import { m0002 } from './0002-login-sessions.js';
import { m0003 } from './0003-uploads.js';
import { m0004 } from './0004-video.js';
import { m0005 } from './0005-session-credential-hash.js';
import { m0006 } from './0006-uploads-single-use.js';
import { m0007 } from './0007-jobs.js';
import { m0009 } from './0009-generation-results.js';
import { m0010 } from './0010-template-provider.js';
import { m0008 } from './0008-webhooks.js';
import { m0011 } from './0011-mailboxes.js';
import { m0012 } from './0012-session-lifecycle.js';
import { m0013 } from './0013-mailbox-insecure-auth.js';
import { m0014 } from './0014-saved-logins.js';
import { m0015 } from './0015-login-webhooks.js';
import { m0016 } from './0016-browser-profile-imports.js';
import { m0017 } from './0017-saved-login-passkeys.js';
import { m0018 } from './0018-generation-options.js';
import { m0019 } from './0019-video-formats.js';
import { m0020 } from './0020-caption-uploads.js';
import { m0021 } from './0021-scratch-templates.js';
import { m0022 } from './0022-secret-inventory.js';
import { m0023 } from './0023-webhook-deliveries.js';
import { m0024 } from './0024-saved-login-browser.js';

import type { Migration } from './migration.js';

export type { Migration };

/** Numbered migrations, applied in order, each once, each in a transaction. Never edit a shipped one. */
export const MIGRATIONS: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
  m0019,
  m0020,
  m0021,
  m0022,
  m0023,
  m0024,
];
