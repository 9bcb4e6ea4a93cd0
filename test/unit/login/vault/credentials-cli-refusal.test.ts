// `credentials add` says what the service refused from the error's structured issues (details.issues), not by
// stripping the route's "Invalid body: " from its message (issue 41: the CLI restated the route's framing).
import { describe, expect, it } from 'vitest';
import { credentialsCommand, type CliIo } from '../../../../src/main/cli-credentials.js';
import type { Core } from '../../../../src/main/core/create-core.js';
import { AppError } from '../../../../src/main/core/errors.js';

/** A core whose saved-login store refuses with `err`, and the usage error the command ends with. */
async function usageFor(err: AppError): Promise<string> {
  const core = { login: { vault: { savedLogins: { create: () => Promise.reject(err) } } } } as unknown as Core;
  const io: CliIo = {
    out: () => {},
    readSecret: async () => 'pw',
    orgOrOnly: () => ({ id: 'org_1', name: 'test-org' }),
    usage: (message) => new Error(`usage: ${message}`),
  };
  const values = { label: 'L', url: 'https://app.example.com/login' };
  return credentialsCommand(core, 'add', [], values, io).then(
    () => 'no error',
    (e: Error) => e.message,
  );
}

describe('credentials add: the refusal from its structured issues', () => {
  it('names each field and message, whatever framing the message has', async () => {
    const err = new AppError(400, 'validation_error', 'Any framing at all: phone: …', {
      field: 'phone',
      issues: [
        { path: 'phone', message: 'must be an E.164 number' },
        { path: 'shareWith', message: 'not API keys of this organization: k1' },
      ],
    });
    expect(await usageFor(err)).toBe(
      'usage: phone: must be an E.164 number; shareWith: not API keys of this organization: k1',
    );
  });

  it('a 400 without issues says its message', async () => {
    const err = new AppError(400, 'validation_error', 'password is required for loginMethod "password".');
    expect(await usageFor(err)).toBe('usage: password is required for loginMethod "password".');
  });
});
