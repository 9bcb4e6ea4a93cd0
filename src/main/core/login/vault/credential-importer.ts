import type { CredentialImportRequest, CredentialImportResult } from '../../../../shared/credentials.schema.js';
import { AppError } from '../../errors.js';
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
      if (!body.dryRun && item.login && action !== 'skip') {
        const { loginUrl, password, totpSecret, notes } = item.login;
        try {
          if (action === 'create') {
            const made = await this.saved.create(
              orgId,
              {
                label,
                loginUrl,
                loginMethod: 'password',
                username,
                ...(password ? { password } : {}),
                ...(totpSecret ? { totpSecret } : {}),
                ...(notes ? { notes } : {}),
                shareWith: body.shareWith,
              },
              'import',
            );
            id = made.id;
          } else {
            await this.saved.update(orgId, item.mergeInto!, {
              ...(password ? { password } : {}),
              ...(totpSecret ? { totpSecret } : {}),
              ...(notes ? { notes } : {}),
            });
          }
        } catch (err) {
          // A login that could never be used (e.g. a TOTP secret that is not one) is skipped, not half saved.
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          action = 'skip';
          reason = err.message;
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
