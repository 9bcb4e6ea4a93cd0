// The app's log: sensitive keys never reach the file (three levels deep, any case, inside errors), the caller's
// objects are left as they were, and lines written in batches still all reach the file on flush, on exit and after
// an uncaught exception.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, redactLogObject } from '../../src/main/core/logger.js';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { tempDir } from '../helpers/temp-dir.js';

const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('log redaction', () => {
  it('replaces sensitive values at the first three levels, in any letter case, and keeps the rest', () => {
    const line = {
      password: 'p1',
      route: '/api/login',
      req: { headers: { Authorization: 'Bearer k', accept: 'json' }, Cookie: 'c=1' },
      body: { cred: { username: 'ada', password: 'p2' }, domain: 'https://x.test' },
      list: [{ token: 't1' }, { name: 'kept' }],
      deep: { a: { b: { password: 'beyond three levels' } } },
    };
    expect(redactLogObject(line)).toEqual({
      password: '[redacted]',
      route: '/api/login',
      req: { headers: { Authorization: '[redacted]', accept: 'json' }, Cookie: '[redacted]' },
      body: { cred: '[redacted]', domain: 'https://x.test' },
      list: [{ token: '[redacted]' }, { name: 'kept' }],
      deep: { a: { b: { password: 'beyond three levels' } } },
    });
  });

  it('never changes the caller’s objects, and hands back the same object when nothing is sensitive', () => {
    const inner = { apiKey: 'k' };
    const line = { outer: inner, n: 1 };
    const out = redactLogObject(line);
    expect(out).not.toBe(line);
    expect(inner.apiKey).toBe('k');
    const clean = { method: 'POST', status: 200, nested: { ms: 3 } };
    expect(redactLogObject(clean)).toBe(clean);
  });

  it('an error keeps its class, message and stack; its sensitive fields are replaced', () => {
    class SiteError extends Error {
      secret = 'error-secret';
      site = 'x.test';
    }
    const err = new SiteError('the site refused');
    const out = redactLogObject({ err }).err as SiteError;
    expect(out).toBeInstanceOf(SiteError);
    expect(out.message).toBe('the site refused');
    expect(out.stack).toBe(err.stack);
    expect(out.secret).toBe('[redacted]');
    expect(out.site).toBe('x.test');
    expect(err.secret).toBe('error-secret');
  });

  it('the log file holds no sensitive value, and an error line names its type', async () => {
    const dir = tempDir();
    const logger = createLogger(dir, 'info');
    class SiteError extends Error {
      token = 'tok-123';
    }
    logger.log.info({ cred: { password: 'hunter2' }, headers: { cookie: 'sid=abc' } }, 'login');
    logger.log.error({ err: new SiteError('failed') }, 'failed');
    await logger.flush();
    const text = fs.readFileSync(logger.file, 'utf8');
    for (const secret of ['hunter2', 'sid=abc', 'tok-123']) expect(text).not.toContain(secret);
    const [, errLine] = lines(logger.file);
    expect(errLine.err).toMatchObject({ type: 'SiteError', message: 'failed', token: '[redacted]' });
    logger.dispose();
  });
});

describe('batched log writes', () => {
  const child = (script: string) => {
    const dir = tempDir();
    const file = path.join(dir, 'child.ts');
    const logger = JSON.stringify(path.join(REPO_ROOT, 'src/main/core/logger.ts'));
    fs.writeFileSync(
      file,
      `import { createLogger } from ${logger};\nconst l = createLogger(${JSON.stringify(dir)}, 'info');\n${script}\n`,
    );
    const res = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: REPO_ROOT, encoding: 'utf8' });
    return { res, log: path.join(dir, 'logs', 'agent-studio.log') };
  };

  it('every line reaches the file when the process exits at once after logging', () => {
    const { res, log } = child(`for (let i = 0; i < 500; i++) l.log.info({ i }, 'line');\nprocess.exit(0);`);
    expect(res.status).toBe(0);
    expect(lines(log).map((l) => l.i)).toEqual([...Array(500).keys()]);
  });

  it('every line reaches the file when the process dies of an uncaught exception', () => {
    const { res, log } = child(
      `for (let i = 0; i < 50; i++) l.log.info({ i }, 'line');\nsetTimeout(() => { throw new Error('boom'); }, 1);`,
    );
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('boom');
    expect(lines(log).map((l) => l.i)).toEqual([...Array(50).keys()]);
  });
});
