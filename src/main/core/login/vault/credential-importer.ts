import { setImmediate } from 'node:timers/promises';
import {
  MAX_IMPORT_ENTRIES,
  type CredentialImportRequest,
  type CredentialImportResult,
} from '../../../../shared/credentials.schema.js';
import { AppError, issuesText } from '../../errors.js';
import { parseTotpSecret } from '../codes/totp.js';
import { ExportFileError, parseExport } from './import/export-formats.js';
import { planImport } from './import/import-plan.js';
import type { MergeDraft, SavedLoginsImport } from './saved-logins-import.js';
import type { SavedLoginDraft, SavedLoginsService } from './saved-logins.service.js';

/** Entries checked between two yields to the event loop: other requests go on while thousands are checked. */
const YIELD_EVERY = 100;

/**
 * Lets the requests that arrived meanwhile in. Twice: from a request's own I/O callback one setImmediate runs on in
 * the same turn of the event loop, before it polls for I/O again.
 */
async function letOthersIn(): Promise<void> {
  await setImmediate();
  await setImmediate();
}

/**
 * POST /api/credentials/import and `credentials import`: reads a password manager's or browser's export
 * once (never stored), plans what it creates, merges and skips (import/import-plan.ts), and on a real run
 * saves it, all or nothing (saved-logins-import.ts). The answer never carries a secret.
 */
export class CredentialImporter {
  /** This process's real imports, one at a time: each plans against the saved logins the one before made. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly saved: SavedLoginsService,
    private readonly batch: SavedLoginsImport,
  ) {}

  run(orgId: string, body: CredentialImportRequest): Promise<CredentialImportResult> {
    if (body.dryRun) return this.plan(orgId, body);
    const done = this.queue.then(() => this.plan(orgId, body));
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** What imports of killed processes left is settled (at start; a real import does it first too). */
  recover(): Promise<number> {
    return this.batch.recover();
  }

  private async plan(orgId: string, body: CredentialImportRequest): Promise<CredentialImportResult> {
    const content = body.encoding === 'base64' ? new Uint8Array(Buffer.from(body.content, 'base64')) : body.content;
    let parsed;
    try {
      parsed = parseExport(body.format, content);
    } catch (err) {
      if (!(err instanceof ExportFileError)) throw err;
      throw new AppError(400, 'validation_error', `content: not a valid ${body.format} export: ${err.message}`, {
        field: 'content',
        ...(err.line !== undefined ? { line: err.line } : {}),
        ...(err.column !== undefined ? { column: err.column } : {}),
      });
    }
    const entries = parsed.logins.length + parsed.skipped.length;
    if (entries > MAX_IMPORT_ENTRIES)
      throw new AppError(
        413,
        'payload_too_large',
        `The file has ${entries} entries; an import takes at most ${MAX_IMPORT_ENTRIES}. Split the export into ` +
          `files of up to ${MAX_IMPORT_ENTRIES} entries and import each.`,
        { field: 'content', entries, limit: MAX_IMPORT_ENTRIES },
      );
    if (!body.dryRun) await this.batch.recover();
    // Parsing, planning and saving are each tens of milliseconds for thousands of entries: other requests between.
    await letOthersIn();
    const existing = this.batch.existing(orgId);
    await letOthersIn();
    const result: CredentialImportResult = { dryRun: body.dryRun, created: 0, merged: 0, skipped: 0, items: [] };
    const plan = planImport(parsed, existing);
    await letOthersIn();
    // A real run's merges: the secrets they hold, read in one pass of the secret store.
    const merging = body.dryRun
      ? []
      : plan.filter((i) => i.action === 'merge' && i.login).map((i) => this.saved.get(orgId, i.mergeInto!));
    const held = await this.batch.heldSecrets(merging);
    const mergeRows = new Map(merging.map((s) => [s.id, s]));
    const creates: SavedLoginDraft[] = [];
    const merges: MergeDraft[] = [];
    for (const [n, item] of plan.entries()) {
      if (n % YIELD_EVERY === YIELD_EVERY - 1) await letOthersIn();
      const { at, label, origin, username } = item;
      let action = item.action;
      let reason = item.reason;
      let id = item.mergeInto;
      if (item.login && action !== 'skip') {
        const { loginUrl, password, notes } = item.login;
        // A counter-based (HOTP) or Steam secret cannot make codes here: the login is imported without it,
        // and the preview says so as the real run does.
        let totpSecret = item.login.totpSecret;
        if (totpSecret && !isTotpSecret(totpSecret)) {
          totpSecret = undefined;
          reason = joinReasons(
            reason,
            'imported without its authenticator secret, which is not a TOTP one (HOTP, Steam)',
          );
        }
        const fields = {
          ...(password ? { password } : {}),
          ...(totpSecret ? { totpSecret } : {}),
          ...(notes ? { notes } : {}),
        };
        const input = { label, loginUrl, loginMethod: 'password', username, ...fields, shareWith: body.shareWith };
        try {
          if (action === 'create') {
            const draft = this.saved.validate(orgId, input, 'import');
            if (!body.dryRun) creates.push(draft);
            id = draft.saved.id;
          } else if (!body.dryRun) {
            const before = mergeRows.get(item.mergeInto!)!;
            merges.push(this.batch.mergeDraft(before, held.get(before.id) ?? {}, fields));
          }
        } catch (err) {
          // A login that could never be used is skipped, in the preview as in the real run: never half saved.
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          action = 'skip';
          reason = issuesText(err); // the field and what is wrong with it, without the HTTP framing
          id = undefined;
        }
      }
      result[action === 'create' ? 'created' : action === 'merge' ? 'merged' : 'skipped']++;
      result.items.push({
        at,
        label,
        origin,
        username,
        action,
        ...(reason ? { reason } : {}),
        ...(id && (action !== 'create' || !body.dryRun) ? { id } : {}),
      });
    }
    // Nothing is saved before this, and this saves all of it or nothing.
    if (!body.dryRun) await this.batch.commit(orgId, creates, merges);
    return result;
  }
}

function isTotpSecret(secret: string): boolean {
  try {
    parseTotpSecret(secret);
    return true;
  } catch {
    return false;
  }
}

const joinReasons = (a: string | undefined, b: string): string => (a ? `${a}; ${b}` : b);
