// The renderer's form helpers: validation errors from the API and the IPC contract turned into
// per-field messages in plain words, and the login form's fields read from GET /api/login/methods.
import { describe, expect, it } from 'vitest';
import { LOGIN_METHOD_INFO } from '../../../src/main/core/login/login-methods.js';
import { MailboxCreateSchema } from '../../../src/shared/mailboxes.schema.js';
import { ApiError } from '../../../src/renderer/lib/api.js';
import { fieldErrorsFrom, isInputError, plainMessage } from '../../../src/renderer/lib/field-errors.js';
import { fieldsOf, parseExtraFields } from '../../../src/renderer/features/sessions/login-method-fields.js';

describe('plainMessage', () => {
  it.each([
    ['Invalid input: expected string, received undefined', 'Required'],
    ['Too small: expected string to have >=1 characters', 'Required'],
    ['Too small: expected string to have >=3 characters', 'At least 3 characters'],
    ['Too big: expected string to have <=100 characters', 'At most 100 characters'],
    ['Too small: expected number to be >=1', 'Must be 1 or more'],
    ['Too big: expected number to be <=65535', 'Must be 65535 or less'],
    ['Invalid input: expected number, received string', 'Enter a number'],
    ['Invalid input: expected int, received number', 'Enter a whole number'],
    ['Too small: expected array to have >=1 items', 'Add at least one'],
    ['Invalid URL', 'Enter a full address, like https://example.com'],
    ['Invalid option: expected one of "a"|"b"', 'Choose one of the options'],
  ])('%s -> %s', (zod, plain) => expect(plainMessage(zod)).toBe(plain));

  it('keeps a schema’s own message and names fields by their labels', () => {
    expect(plainMessage('must be a host name or IP address (no scheme, port or path), e.g. imap.example.com')).toBe(
      'Must be a host name or IP address (no scheme, port or path), e.g. imap.example.com',
    );
    expect(
      plainMessage('cred.totpSecret (base32 or an otpauth:// URI) is required for loginMethod "totp".', {
        'cred.totpSecret': 'Authenticator secret',
      }),
    ).toBe('Authenticator secret (base32 or an otpauth:// URI) is required for this login method.');
  });
});

describe('fieldErrorsFrom', () => {
  const labels = { addresses: 'Addresses', 'imap.host': 'IMAP server', 'imap.port': 'Port', name: 'Name' };

  it('maps the contract’s argument issues (body.…) of a real schema onto the fields', () => {
    const parsed = MailboxCreateSchema.safeParse({
      addresses: ['ada@example.com', 'not an address'],
      imap: { host: 'imap://x', port: 0, username: 'u', password: 'p' },
    });
    expect(parsed.success).toBe(false);
    const issues = parsed.error!.issues.map((i) => ({ path: ['body', ...i.path].join('.'), message: i.message }));
    const err = new ApiError('validation_error', 'bad', { issues });
    expect(isInputError(err)).toBe(true);
    expect(fieldErrorsFrom(err, labels)).toEqual({
      fields: {
        addresses: 'Must be an e-mail address (ada@example.com) or a whole domain (*@example.com)',
        'imap.host': 'Must be a host name or IP address (no scheme, port or path), e.g. imap.example.com',
        'imap.port': 'Must be 1 or more',
      },
      unplaced: [],
    });
  });

  it('uses details.field of the login service, and reads the video service’s "Invalid body:" message', () => {
    const login = new ApiError('INVALID_REQUEST', 'additionalFields.phone (E.164, e.g. +15550100) is required', {
      field: 'additionalFields.phone',
    });
    expect(fieldErrorsFrom(login, { 'additionalFields.phone': 'Phone number' }).fields).toEqual({
      'additionalFields.phone': 'Phone number (E.164, e.g. +15550100) is required',
    });
    const video = new ApiError(
      'validation_error',
      'Invalid body: title: Too small: expected string to have >=1 characters; extra: Unrecognized key: "x"',
    );
    expect(fieldErrorsFrom(video, { title: 'Title' })).toEqual({
      fields: { title: 'Required' },
      unplaced: ['extra: Not expected here'],
    });
  });

  it('leaves failures that are not about input alone', () => {
    const failed = new ApiError('AUTHENTICATION_FAILED', 'The site refused the password', { reason: 'x' });
    expect(isInputError(failed)).toBe(false);
    expect(fieldErrorsFrom(failed, labels)).toEqual({ fields: {}, unplaced: [] });
  });
});

describe('login form fields from GET /api/login/methods', () => {
  const method = (id: string) => LOGIN_METHOD_INFO.find((m) => m.id === id)!;

  it('shows what each served method needs (required) and may use', () => {
    expect(fieldsOf(method('totp'))).toEqual([
      { key: 'cred.username', required: true },
      { key: 'cred.password', required: true },
      { key: 'cred.totpSecret', required: true },
      { key: 'additionalFields', required: false },
    ]);
    expect(fieldsOf(method('otp_sms')).filter((f) => f.required)).toEqual([
      { key: 'additionalFields.phone', required: true },
    ]);
    expect(fieldsOf(method('otp_email'))[0]).toEqual({ key: 'cred.username', required: true, email: true });
    for (const m of LOGIN_METHOD_INFO) expect(fieldsOf(m).length).toBeGreaterThan(0);
  });

  it('reads name=value lines', () => {
    expect(parseExtraFields('company = acme\n\nteam=a=b')).toEqual({
      fields: { company: 'acme', team: 'a=b' },
      bad: null,
    });
    expect(parseExtraFields('no equals sign').bad).toBe('“no equals sign” is not name=value');
  });
});
