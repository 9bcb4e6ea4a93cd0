// The Saved logins screen's part of the IPC contract (spread into IPC_CONTRACT in ipc-contract.ts, the one
// table): the routes of the vault, and what only the person at this machine may do with a saved login, answered by
// the main process (core/desktop/vault-channels.ts): Reveal, Copy (straight to the OS clipboard, the secret never
// enters the page), Export passkeys, Test now (as the person, not as an API key) and a confirmed move of where its
// secrets are typed.
import { z } from 'zod';
import { CredentialIdParamsSchema, SavedLoginSchema, SavedLoginUpdateSchema } from './credentials.schema.js';
import type { Channel } from './ipc-channel.js';

/** A secret of a saved login a person may reveal or copy (additional field values: by their name). */
export const RevealableSecretSchema = z.union([
  z.enum(['password', 'totpSecret', 'notes']),
  z.object({ additionalField: z.string().min(1).max(256) }).strict(),
]);

const secretArgs = z.object({ id: z.string().min(1).max(200), secret: RevealableSecretSchema }).strict();

export const CREDENTIALS_CHANNELS = {
  'credentials:list': { kind: 'http', route: 'listCredentials' },
  'credentials:get': { kind: 'http', route: 'getCredential' },
  'credentials:create': { kind: 'http', route: 'createCredential' },
  'credentials:update': { kind: 'http', route: 'updateCredential' },
  'credentials:delete': { kind: 'http', route: 'deleteCredential' },
  'credentials:uses': { kind: 'http', route: 'credentialUses' },
  /** dryRun true: the preview; false: saves what the preview listed. */
  'credentials:import': { kind: 'http', route: 'importCredentials' },
  /**
   * The person's edit that moves where the secrets are typed (another login page origin, an origin added), sent
   * once the window asked them to confirm it. PATCH /api/credentials/{id} refuses such a change from an API key
   * unless it carries every secret (409 SECRETS_REQUIRED); this channel is the person, so it need not. The same
   * argument and answer as credentials:update; refusals in the login-service shape.
   */
  'credentials:updateConfirmed': {
    kind: 'local',
    args: z.object({ params: CredentialIdParamsSchema, body: SavedLoginUpdateSchema }).strict(),
    result: SavedLoginSchema,
  },

  /** The secret's value, shown because the person pressed Reveal (logged without the value). */
  'credentials:reveal': {
    kind: 'local',
    args: secretArgs,
    result: z.object({ value: z.string() }),
  },
  /** Puts the secret on the OS clipboard (cleared after 30 s when it is still there); the page never gets it. */
  'credentials:copySecret': {
    kind: 'local',
    args: secretArgs,
    result: z.object({ copied: z.boolean() }),
  },
  /**
   * The saved login's passkeys with their private keys, written to a file the person picks (mode 0600), in the
   * documented format of docs/own-browsers-and-passkeys.md#export (the CDP WebAuthn credential fields). Never returned to the page.
   */
  'credentials:exportPasskeys': {
    kind: 'local',
    args: z.object({ id: z.string().min(1).max(200) }).strict(),
    result: z.object({ saved: z.boolean(), name: z.string().nullable(), count: z.number().int() }),
  },
  /**
   * A real login with the saved login now, as the person (sharing does not apply), its steps live as
   * `login:step` events with `loginId`; recorded in its use log as desktop_test. Failure is a value.
   */
  'credentials:test': {
    kind: 'local',
    args: z.object({ id: z.string().min(1).max(200), loginId: z.string().min(1).max(64) }).strict(),
    result: z.union([
      z.object({ ok: z.literal(true), sessionId: z.string(), cookies: z.number().int(), ms: z.number() }),
      z.object({
        ok: z.literal(false),
        code: z.string(),
        message: z.string(),
        steps: z.array(z.string()),
        ms: z.number(),
      }),
    ]),
  },
} as const satisfies Record<string, Channel>;
