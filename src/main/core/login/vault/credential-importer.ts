import type { CredentialImportRequest, CredentialImportResult } from '../../../../shared/credentials.schema.js';
import { AppError } from '../../errors.js';
import { parseTotpSecret } from '../codes/totp.js';
import { ExportFileError, parseExport } from './import/export-formats.js';
import { planImport } from './import/import-plan.js';
import { originOf, type SavedLoginsService } from './saved-logins.service.js';

/**
 * POST /api/credentials/import and `credentials import`: reads a password manager's or browser's export
 * once (never stored), plans what it creates, merges and skips (import/import-plan.ts), and on a real run
 * saves it. The answer never carries a secret.
 */
export class CredentialImporter {
  constructor(private readonly saved: SavedLoginsService) {}

  async run(orgId: string, body: CredentialImportRequest): Promise<CredentialImportResult> {
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
    const existing = this.saved
      .list(orgId)
      .map((s) => ({ id: s.id, label: s.label, origin: originOf(s.loginUrl) ?? '', username: s.username }));
    const result: CredentialImportResult = { dryRun: body.dryRun, created: 0, merged: 0, skipped: 0, items: [] };
    for (const item of planImport(parsed, existing)) {
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
          if (action === 'create' && body.dryRun) this.saved.validate(orgId, input, 'import');
          else if (action === 'create') id = (await this.saved.create(orgId, input, 'import')).id;
          else if (!body.dryRun) await this.saved.update(orgId, item.mergeInto!, fields);
        } catch (err) {
          // A login that could never be used is skipped, in the preview as in the real run: never half saved.
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          action = 'skip';
          reason = err.message.replace(/^Invalid body: /, '');
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
