// The MCP tools restate no fact of the API (issue 41, "Facts still written twice"): a tool's scope is its route's
// (the route table), and the status of a login error a tool reports is the one the HTTP API answers it with (the
// core's ERROR_CODE_STATUS, or LOGIN_FAILURE_STATUS for a failure with a reason), read back from the body a login
// board entry keeps.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError, badRequest, forbidden, notFound, unauthorized } from '../../../src/main/core/errors.js';
import { renderError } from '../../../src/main/core/http/plugins/errors.js';
import { loginFailed } from '../../../src/main/core/mcp/mcp-login-tools.js';
import { ERROR_CODE_STATUS, LOGIN_FAILURE_STATUS, type FixedStatusCode } from '../../../src/shared/errors.js';
import type { LoginRun } from '../../../src/shared/login.schema.js';
import { SCOPES } from '../../../src/shared/scopes.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const MCP_DIR = path.join(REPO_ROOT, 'src/main/core/mcp');
const sources = fs
  .readdirSync(MCP_DIR)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => [f, fs.readFileSync(path.join(MCP_DIR, f), 'utf8')] as const);

/** A board entry that ended with the body the API rendered for `err`. */
const endedWith = (err: AppError): LoginRun => ({
  login_id: 'l1',
  status: err.code === 'login_cancelled' ? 'cancelled' : 'failed',
  steps: [],
  state_available: false,
  error: renderError('login', err) as LoginRun['error'],
  started_at: 0,
  finished_at: 1,
});

describe('the MCP login tools derive what the API declares', () => {
  it('no scope is written in the MCP code: each comes from its route entry', () => {
    for (const [file, text] of sources) {
      for (const scope of SCOPES) expect(text.includes(`'${scope}'`), `${file} writes '${scope}'`).toBe(false);
    }
  });

  it('no table of login codes to statuses in the MCP code', () => {
    for (const [file, text] of sources) expect(text, file).not.toMatch(/\b[A-Z][A-Z_]{3,}: [1-5]\d\d\b/);
  });

  it('the core builds its fixed-status errors with the one table', () => {
    const built: Record<string, AppError> = {
      validation_error: badRequest('bad'),
      unauthorized: unauthorized(),
      forbidden: forbidden('login:write'),
      not_found: notFound(),
    };
    for (const [code, err] of Object.entries(built)) {
      expect(err.code).toBe(code);
      expect(err.status).toBe(ERROR_CODE_STATUS[code as FixedStatusCode]);
    }
  });

  it("a failed login's tool error carries the status the API answered it with", () => {
    const errors = [
      ...(Object.keys(ERROR_CODE_STATUS) as FixedStatusCode[]).map(
        (code) =>
          new AppError(ERROR_CODE_STATUS[code], code, 'm', code === 'login_cancelled' ? { reason: 'cancelled' } : {}),
      ),
      ...Object.entries(LOGIN_FAILURE_STATUS).map(
        ([reason, { status, code }]) => new AppError(status, code.toLowerCase(), 'm', { reason }),
      ),
    ];
    for (const err of errors) {
      const toolError = loginFailed(endedWith(err));
      expect(toolError.status, err.code).toBe(err.status);
      expect(toolError.code).toBe((renderError('login', err) as { error: string }).error);
    }
  });
});
