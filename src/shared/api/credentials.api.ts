import {
  CredentialIdParamsSchema,
  CredentialImportRequestSchema,
  CredentialImportResultSchema,
  CredentialUseListSchema,
  MAX_IMPORT_BODY_BYTES,
  MAX_IMPORT_ENTRIES,
  PasskeyCreatedSchema,
  PasskeyCreateRequestSchema,
  SavedLoginCreateSchema,
  SavedLoginListSchema,
  SavedLoginSchema,
  SavedLoginUpdateSchema,
} from '../credentials.schema.js';
import { defineApiRoutes } from './api-route.js';

const neverSecrets =
  'Secrets (password, TOTP secret, additional field values, notes) are write-only: no answer carries them, ' +
  'not even masked or their lengths.';

/** Saved logins (the vault): agents log in by a saved login's id or label and never hold its secrets. */
export const CREDENTIALS_API = defineApiRoutes({
  listCredentials: {
    method: 'GET',
    path: '/api/credentials',
    api: 'login',
    scope: 'credentials:read',
    summary: "The organization's saved logins, by label (metadata only)",
    description: `Every saved login of the organization, whether or not it is shared with the calling key. ${neverSecrets}`,
    tags: ['credentials'],
    responses: { 200: { description: 'Saved logins', schema: SavedLoginListSchema } },
  },

  getCredential: {
    method: 'GET',
    path: '/api/credentials/:id',
    api: 'login',
    scope: 'credentials:read',
    summary: 'One saved login by id (cred_…) or label (metadata only)',
    tags: ['credentials'],
    params: CredentialIdParamsSchema,
    responses: {
      200: { description: 'The saved login', schema: SavedLoginSchema },
      404: { description: 'NOT_FOUND: no saved login with that id or label' },
    },
  },

  createCredential: {
    method: 'POST',
    path: '/api/credentials',
    api: 'login',
    scope: 'credentials:write',
    summary: 'Save a login: its secrets go to the OS keychain, its metadata to the database',
    description:
      'Then POST /api/login {"credential": "<label or id>"} logs in with it. The secrets are typed only on its ' +
      `origins. ${neverSecrets}`,
    tags: ['credentials'],
    body: SavedLoginCreateSchema,
    responses: {
      201: { description: 'The saved login', schema: SavedLoginSchema },
      400: { description: 'INVALID_REQUEST: bad input (details.field names it)' },
      409: { description: 'CREDENTIAL_EXISTS: the organization already has a saved login with that label' },
      503: { description: 'SECRETS_UNAVAILABLE: no secret store to keep the secrets in' },
    },
  },

  updateCredential: {
    method: 'PATCH',
    path: '/api/credentials/:id',
    api: 'login',
    scope: 'credentials:write',
    summary: 'Change a saved login: only the fields given; null removes an optional one',
    description:
      'Moving where its secrets are typed is reading them in practice, so a change that does (loginUrl on another ' +
      'origin, an origin added, a login method whose default origins add one) must carry every secret a login types ' +
      'in the same request — password, totpSecret, additionalFields, as the saved login holds them (new values or ' +
      'null count too) — else 409 SECRETS_REQUIRED with details.fields naming the missing ones. A saved login with ' +
      'passkeys is moved only by the person (desktop app). Another path on the same origin and removing origins ' +
      'need nothing. A loginUrl equal to the masked one answers show keeps the saved URL. ' +
      neverSecrets,
    tags: ['credentials'],
    params: CredentialIdParamsSchema,
    body: SavedLoginUpdateSchema,
    responses: {
      200: { description: 'The saved login', schema: SavedLoginSchema },
      400: { description: 'INVALID_REQUEST' },
      404: { description: 'NOT_FOUND' },
      409: {
        description:
          'CREDENTIAL_EXISTS: another saved login has that label; SECRETS_REQUIRED: the change moves where the ' +
          'secrets are typed and the request does not carry them all (details.fields)',
      },
    },
  },

  deleteCredential: {
    method: 'DELETE',
    path: '/api/credentials/:id',
    api: 'login',
    scope: 'credentials:write',
    summary: 'Delete a saved login and its secrets (sessions made with it stay, without a way to renew)',
    tags: ['credentials'],
    params: CredentialIdParamsSchema,
    responses: { 204: { description: 'Deleted' }, 404: { description: 'NOT_FOUND' } },
  },

  credentialUses: {
    method: 'GET',
    path: '/api/credentials/:id/uses',
    api: 'login',
    scope: 'credentials:read',
    summary: 'The use log of a saved login: which key used it, when, from which endpoint, with what outcome',
    tags: ['credentials'],
    params: CredentialIdParamsSchema,
    responses: {
      200: { description: 'Uses, newest first', schema: CredentialUseListSchema },
      404: { description: 'NOT_FOUND' },
    },
  },

  createPasskey: {
    method: 'POST',
    path: '/api/credentials/:id/passkeys',
    api: 'login',
    // It signs in with the saved password (a login) and changes the saved login: a key needs both.
    scope: ['credentials:write', 'login:write'],
    summary: 'Create a passkey on the site and keep it in the saved login (then loginMethod "passkey" uses it)',
    description:
      'Signs in with the saved login’s password, finds the site’s "create a passkey" / "add a passkey" control (on the ' +
      'page after the login or a security / settings page linked from it), lets a virtual authenticator answer the ' +
      'site’s WebAuthn registration, and keeps the new passkey: its private key in the OS keychain with the saved ' +
      'login’s other secrets, its RP ID and credential id in the saved login’s `passkeys`. A passkey is used only ' +
      `on its RP ID's origins among the saved login's origins. Needs both credentials:write and login:write. ${neverSecrets}`,
    tags: ['credentials'],
    params: CredentialIdParamsSchema,
    body: PasskeyCreateRequestSchema,
    responses: {
      201: { description: 'The passkey the site registered', schema: PasskeyCreatedSchema },
      400: { description: 'INVALID_REQUEST: the saved login has no password to sign in with' },
      401: { description: 'AUTHENTICATION_FAILED: the site refused the saved login’s password' },
      403: { description: 'FORBIDDEN: the key lacks credentials:write or login:write (details.required_scope)' },
      404: { description: 'NOT_FOUND' },
      422: {
        description:
          'PASSKEY_FLOW_NOT_FOUND: no "create a passkey" control after signing in; CREDENTIAL_ORIGIN_MISMATCH: the ' +
          'passkey’s RP ID is not among the saved login’s origins; other login failures as POST /api/login',
      },
    },
  },

  importCredentials: {
    method: 'POST',
    path: '/api/credentials/import',
    api: 'login',
    scope: 'credentials:write',
    summary: 'Import saved logins from a password manager or browser export (preview by default)',
    description:
      'format: chrome (also Edge), firefox, safari, bitwarden (unencrypted CSV or JSON), 1password (CSV or .1pux as ' +
      'base64), keepassxc (CSV). With dryRun true (the default) nothing is saved: the answer lists what would be ' +
      'created, merged (same origin and username as a saved login: its secrets are replaced) or skipped, with reasons. ' +
      'The file is read once and never stored. 400 INVALID_REQUEST names the line and column of a bad file. ' +
      `A real run saves all of it or nothing, also when the server is killed meanwhile. At most ${MAX_IMPORT_ENTRIES} ` +
      `entries and a ${MAX_IMPORT_BODY_BYTES / 1024 / 1024} MiB body. ${neverSecrets}`,
    tags: ['credentials'],
    body: CredentialImportRequestSchema,
    bodyLimit: MAX_IMPORT_BODY_BYTES,
    responses: {
      200: { description: 'The plan (dryRun) or what was saved', schema: CredentialImportResultSchema },
      400: { description: 'INVALID_REQUEST: not a valid export of that format (details.line, details.column)' },
      409: {
        description:
          'CREDENTIAL_EXISTS / IMPORT_CONFLICT: a saved login the import makes or merges into was added or changed ' +
          'while it ran; nothing was imported',
      },
      413: {
        description: `PAYLOAD_TOO_LARGE: more than ${MAX_IMPORT_ENTRIES} entries (details.entries, details.limit), or a larger body`,
      },
      503: { description: 'SECRETS_UNAVAILABLE' },
    },
  },
});
