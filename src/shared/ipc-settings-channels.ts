// The Settings screen's part of the IPC contract (spread into IPC_CONTRACT in ipc-contract.ts, the one
// table): routes of the API it uses (the login methods, mailboxes, the webhook secret) and the channels
// only the main process answers (desktop-only administration: keys and organizations of every org, the
// core's settings in config.json, the theme, the agents' API status, the clipboard, the data folder).
import { z } from 'zod';
import { CreditsSchema } from './credits.schema.js';
import {
  ApiKeySummarySchema,
  ApiStatusSchema,
  CoreSettingsPatchSchema,
  CreatedKeySchema,
  CreditGrantArgsSchema,
  DesktopSettingsSchema,
  KeyCreateArgsSchema,
  KeyListArgsSchema,
  KeyRevokeArgsSchema,
  OrgCreateArgsSchema,
  OrgListSchema,
  OrgRefArgsSchema,
  OrgSummarySchema,
  SettingsUpdateResultSchema,
  StorageTestArgsSchema,
  StorageTestResultSchema,
  ThemeSchema,
} from './desktop-admin.schema.js';
import type { Channel } from './ipc-channel.js';

const noArgs = z.undefined();

export const SETTINGS_CHANNELS = {
  // Routes of the API ...

  /** The login methods the server serves and the request fields each needs (the login form's menu). */
  'login:methods': { kind: 'http', route: 'loginMethods' },
  'mailboxes:list': { kind: 'http', route: 'listMailboxes' },
  'mailboxes:create': { kind: 'http', route: 'createMailbox' },
  'mailboxes:delete': { kind: 'http', route: 'deleteMailbox' },
  /** Connects, logs in and opens INBOX; a failed check is still a value (`ok: false` and the reason). */
  'mailboxes:test': { kind: 'http', route: 'testMailbox' },
  'webhooks:getSecret': { kind: 'http', route: 'webhookSecret' },
  /** A new signing secret; the previous one keeps signing for 24 h. */
  'webhooks:rotateSecret': { kind: 'http', route: 'rotateWebhookSecret' },

  // ... and what only the main process answers (desktop-only administration, no HTTP route).

  /** Whether the agents' API answers over HTTP right now (GET /healthz from outside the core). */
  'app:apiStatus': { kind: 'local', args: noArgs, result: ApiStatusSchema },
  /** Puts text on the OS clipboard (the page itself may not: every permission is denied). */
  'app:copyText': {
    kind: 'local',
    // Large enough for a storageState JSON (cookies and every origin's storage).
    args: z.object({ text: z.string().min(1).max(20_000_000) }).strict(),
    result: z.object({ copied: z.boolean() }),
  },
  /** Opens the data folder in the OS file manager. */
  'app:openDataFolder': { kind: 'local', args: noArgs, result: z.object({ opened: z.boolean() }) },
  /**
   * Opens the API reference (GET /docs of the server this app runs) in the OS browser. No argument: main builds the
   * address from its own server's, so the page cannot have any other local address opened.
   */
  'app:openApiReference': { kind: 'local', args: noArgs, result: z.object({ opened: z.boolean() }) },
  'settings:get': { kind: 'local', args: noArgs, result: DesktopSettingsSchema },
  /** Writes config.json and restarts the core with it (restored when the core cannot start with it). */
  'settings:update': { kind: 'local', args: CoreSettingsPatchSchema, result: SettingsUpdateResultSchema },
  'settings:setTheme': {
    kind: 'local',
    args: z.object({ theme: ThemeSchema }).strict(),
    result: z.object({ theme: ThemeSchema }),
  },
  /** Checks an S3 bucket with these settings (HeadBucket), before they are saved. */
  'settings:testStorage': { kind: 'local', args: StorageTestArgsSchema, result: StorageTestResultSchema },
  'keys:list': {
    kind: 'local',
    args: KeyListArgsSchema,
    result: z.object({ data: z.array(ApiKeySummarySchema) }),
  },
  /** The answer's `key` is the plaintext, shown once: only its hash is stored. */
  'keys:create': { kind: 'local', args: KeyCreateArgsSchema, result: CreatedKeySchema },
  'keys:revoke': { kind: 'local', args: KeyRevokeArgsSchema, result: ApiKeySummarySchema },
  'orgs:list': { kind: 'local', args: noArgs, result: OrgListSchema },
  'orgs:create': { kind: 'local', args: OrgCreateArgsSchema, result: OrgSummarySchema },
  /** Any organization's balance and latest ledger entries. */
  'orgs:credits': { kind: 'local', args: OrgRefArgsSchema, result: CreditsSchema },
  'orgs:grantCredits': { kind: 'local', args: CreditGrantArgsSchema, result: CreditsSchema },
  /**
   * Makes the window work in this organization: its own desktop key (kept in the secret store) becomes the
   * window's, and the core restarts to use it. The page reloads afterwards: every list belongs to one organization.
   */
  'orgs:useInWindow': { kind: 'local', args: OrgRefArgsSchema, result: OrgSummarySchema },
  /**
   * Whether the organization's keys (those granted browser-profiles:read) may read the person's browser profiles:
   * the person's choice, made only here and in the CLI, never by a key (docs/security.md#the-browser-profiles-are-the-persons).
   */
  'orgs:setBrowserProfiles': {
    kind: 'local',
    args: OrgRefArgsSchema.extend({ allowed: z.boolean() }).strict(),
    result: OrgSummarySchema,
  },
} as const satisfies Record<string, Channel>;
