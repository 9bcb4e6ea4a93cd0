import { describe, expect, it } from 'vitest';
import { addressMatches } from '../../../../src/main/core/login/mailboxes/address-match.js';
import { MailboxAddressSchema } from '../../../../src/shared/mailboxes.schema.js';

describe('mailbox address patterns', () => {
  it('an address takes itself and its plus-addresses, case-insensitively', () => {
    expect(addressMatches('ada@example.com', 'ada@example.com')).toBe(true);
    expect(addressMatches('ada@example.com', 'ADA@Example.COM')).toBe(true);
    expect(addressMatches('ada@example.com', 'ada+shop@example.com')).toBe(true);
    expect(addressMatches('ada@example.com', 'ada+a+b@example.com')).toBe(true);
    expect(addressMatches('ada@example.com', 'adam@example.com')).toBe(false);
    expect(addressMatches('ada@example.com', '+ada@example.com')).toBe(false);
    expect(addressMatches('ada@example.com', 'ada@example.org')).toBe(false);
    expect(addressMatches('ada+shop@example.com', 'ada@example.com')).toBe(false);
    expect(addressMatches('ada+shop@example.com', 'ada+shop@example.com')).toBe(true);
  });

  it('*@domain takes every address of that domain, not of its subdomains or look-alikes', () => {
    expect(addressMatches('*@example.com', 'anyone@example.com')).toBe(true);
    expect(addressMatches('*@example.com', 'Anyone+x@EXAMPLE.com')).toBe(true);
    expect(addressMatches('*@example.com', 'a@mail.example.com')).toBe(false);
    expect(addressMatches('*@example.com', 'a@example.com.evil')).toBe(false);
    expect(addressMatches('*@example.com', 'not-an-address')).toBe(false);
  });

  it('the schema lower-cases patterns and refuses what is neither an address nor a domain wildcard', () => {
    expect(MailboxAddressSchema.parse(' Ada@Example.COM ')).toBe('ada@example.com');
    expect(MailboxAddressSchema.parse('*@Corp.Example')).toBe('*@corp.example');
    for (const bad of [
      'ada',
      'ada@',
      '@example.com',
      '*@*.example',
      'a b@example.com',
      'ada@exa_mple.com',
      '*x@example.com',
    ])
      expect(MailboxAddressSchema.safeParse(bad).success, bad).toBe(false);
  });
});
