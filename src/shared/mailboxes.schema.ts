// Zod schemas of the login service's mailboxes: IMAP accounts the otp_email and magic_link logins read
// codes and sign-in links from. Pure: imports nothing but zod.
import { z } from 'zod';

/** Most addresses one mailbox answers for. */
export const MAX_MAILBOX_ADDRESSES = 50;

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** `local@domain` (plus-addressing included) or `*@domain`; compared lower-cased. */
const ADDRESS_PATTERN = new RegExp(`^(?:\\*|[a-z0-9.!#$%&'+/=?^_\`{|}~-]{1,64})@${LABEL}(?:\\.${LABEL})*$`);

export const MailboxAddressSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(ADDRESS_PATTERN, 'must be an e-mail address (ada@example.com) or a whole domain (*@example.com)')
  .describe(
    'An address whose mail arrives in this mailbox (ada@example.com also matches ada+anything@example.com), ' +
      'or *@example.com for every address of the domain. Case-insensitive.',
  );

/** A host name, an IPv4 address or a bare IPv6 address (no brackets): no scheme, path, port or spaces. */
const HOST_PATTERN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|[0-9A-Fa-f.]*:[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*)$/;

export const ImapSettingsSchema = z
  .object({
    host: z
      .string()
      .trim()
      .min(1, 'host is required')
      .max(253)
      .regex(HOST_PATTERN, 'must be a host name or IP address (no scheme, port or path), e.g. imap.example.com'),
    port: z.number().int().min(1).max(65535).describe('993 for IMAP over TLS, 143 for plain IMAP with STARTTLS'),
    secure: z
      .boolean()
      .optional()
      .describe(
        'true: TLS from the first byte (port 993). false: plain IMAP upgraded with STARTTLS, which is required before the ' +
          'password is sent unless the host is loopback or allowInsecureAuth is true. Default: true for port 993, false otherwise.',
      ),
    allowInsecureAuth: z
      .boolean()
      .optional()
      .describe(
        'true: with secure: false, log in even when the server offers no STARTTLS, sending the password in clear. ' +
          'Never needed for loopback (127.0.0.1, ::1, or a name resolving only to them). Default false.',
      ),
    username: z.string().min(1, 'username is required').max(512),
    password: z
      .string()
      .min(1, 'password is required')
      .max(4096)
      .describe(
        'Kept in the OS keychain (or the encrypted secrets file); never returned and never stored in the database',
      ),
  })
  .meta({ id: 'ImapSettings' });

export const MailboxCreateSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('A label for error messages and step traces; default: the first address'),
    addresses: z
      .array(MailboxAddressSchema)
      .min(1, 'give at least one address')
      .max(MAX_MAILBOX_ADDRESSES)
      .describe('The recipient addresses whose codes and links this mailbox receives'),
    imap: ImapSettingsSchema,
  })
  .meta({ id: 'MailboxCreate' });
export type MailboxCreate = z.infer<typeof MailboxCreateSchema>;

export const MailboxSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    addresses: z.array(z.string()),
    imap: z.object({
      host: z.string(),
      port: z.number(),
      secure: z.boolean(),
      username: z.string(),
      allowInsecureAuth: z.boolean().describe('Whether the password may be sent without TLS (see ImapSettings)'),
    }),
    created_at: z.number().describe('Unix ms'),
  })
  .meta({ id: 'Mailbox', description: 'A mailbox (its password is never part of any answer)' });
export type Mailbox = z.infer<typeof MailboxSchema>;

/** The `:id` of /api/mailboxes/:id. */
export const MailboxIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const MailboxListSchema = z.object({ data: z.array(MailboxSchema) }).meta({ id: 'MailboxList' });
export type MailboxList = z.infer<typeof MailboxListSchema>;

export const MailboxTestResultSchema = z
  .object({
    ok: z.boolean(),
    message: z
      .string()
      .describe(
        'What happened: "connected, logged in and opened INBOX", or the problem (connection refused, login failed, TLS)',
      ),
    ms: z.number().describe('How long the check took'),
    messages: z.number().optional().describe('Messages in INBOX (when ok)'),
  })
  .meta({ id: 'MailboxTestResult' });
export type MailboxTestResult = z.infer<typeof MailboxTestResultSchema>;
