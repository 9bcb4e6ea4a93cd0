// test/helpers/dovecot.ts finds Dovecot's programs where each system puts them, instead of Debian's paths only.
import { describe, expect, it } from 'vitest';
import { findDovecotProgram } from '../helpers/dovecot.js';

const present =
  (...files: string[]) =>
  (file: string) =>
    files.includes(file);

describe('finding Dovecot for the mailbox tests', () => {
  it('on PATH first, then the sbin folders of Debian, a source build and Homebrew; null when it is nowhere', () => {
    const env = { PATH: ['/home/jo/bin', '/usr/bin'].join(':') };
    expect(findDovecotProgram('dovecot', env, present('/usr/sbin/dovecot'))).toBe('/usr/sbin/dovecot');
    expect(findDovecotProgram('doveadm', env, present('/usr/bin/doveadm', '/usr/sbin/doveadm'))).toBe(
      '/usr/bin/doveadm',
    );
    expect(findDovecotProgram('dovecot', env, present('/opt/homebrew/sbin/dovecot'))).toBe(
      '/opt/homebrew/sbin/dovecot',
    );
    expect(findDovecotProgram('dovecot', env, present('/home/jo/bin/dovecot', '/usr/sbin/dovecot'))).toBe(
      '/home/jo/bin/dovecot',
    );
    expect(findDovecotProgram('dovecot', env, present())).toBeNull();
  });
});
