// Who may move a secret (docs/saved-logins.md#who-may-move-a-secret). Moving where a saved login's secrets are typed is reading
// them in practice: the next login with it (by any key it is shared with, a health check, the person's Test now,
// a passkey's creation) types them there. So an API key may move a saved login only by handing over, in the same
// request, every secret a login would type: then nothing it did not already hold goes to the new place. The person
// in the desktop app moves them after confirming (vault-channels.ts), and the core's own bookkeeping (origins
// learned, storeCredentials) is not a request.
import type { SavedLoginUpdate } from '../../../../shared/credentials.schema.js';
import { SECRETS_REQUIRED } from '../../../../shared/errors.js';
import { secretsMoveTo } from '../../../../shared/saved-login-move.js';
import { AppError } from '../../errors.js';
import type { StoredSavedLogin } from './saved-logins.repo.js';

/** Who changes a saved login: an API key's request, the person at this machine, or the core itself. */
export type SavedLoginEditor = 'api_key' | 'person' | 'core';

/** What a saved login holds that a move could carry off (secret-store contents, by name). */
interface HeldSecrets {
  password?: string;
  totpSecret?: string;
  additionalFields?: Record<string, string>;
  passkeys?: unknown[];
}

/**
 * The secrets an API key must send with `patch` to change `before` into `after`: none when nothing moves; else each
 * secret a login types (password, TOTP secret, additional field values) that the saved login holds and the patch
 * does not give (a new value or null counts: then the old one does not travel), and `passkeys` when it has any — a
 * request cannot carry a private key, so only the person can move those. Notes are never typed anywhere: not needed.
 */
export function secretsNeededToMove(
  before: StoredSavedLogin,
  after: StoredSavedLogin,
  patch: SavedLoginUpdate,
  held: HeldSecrets,
): { places: string[]; fields: string[] } {
  const places = secretsMoveTo(before, after);
  if (!places.length) return { places, fields: [] };
  const fields = (['password', 'totpSecret', 'additionalFields'] as const).filter(
    (name) => held[name] !== undefined && patch[name] === undefined,
  );
  return { places, fields: held.passkeys?.length ? [...fields, 'passkeys'] : fields };
}

/** 409 SECRETS_REQUIRED naming the fields the request lacks. */
export function secretsRequired(saved: StoredSavedLogin, places: string[], fields: string[]): AppError {
  const sendable = fields.filter((f) => f !== 'passkeys');
  return new AppError(
    409,
    SECRETS_REQUIRED.toLowerCase(),
    `This change lets the secrets of "${saved.label}" be typed on ${places.join(', ')}, where they were not allowed ` +
      'before. ' +
      (sendable.length ? `Send them in the same request (missing: ${sendable.join(', ')}), or let ` : 'Let ') +
      'the person change it in the desktop app (Saved logins → Edit)' +
      (fields.includes('passkeys') ? ': its passkeys cannot be sent in a request.' : '.'),
    { fields, places },
  );
}
