import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { firstRunKey, spawnServer } from '../../helpers/spawn.js';
import { tempDir } from '../../helpers/temp-dir.js';

function descendants(pid: number): number[] {
  const out: number[] = [];
  const byParent = new Map<number, number[]>();
  for (const e of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      byParent.set(ppid, [...(byParent.get(ppid) ?? []), Number(e)]);
    } catch {
      // exited meanwhile
    }
  }
  const stack = [pid];
  while (stack.length) {
    for (const c of byParent.get(stack.pop()!) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}
const alive = (pid: number) =>
  fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));

describe.runIf(process.platform === 'linux')('graceful shutdown', () => {
  it('on SIGTERM lets an in-flight login finish, then closes the browser and exits 0', async () => {
    let onPost: () => void = () => {};
    const posted = new Promise<void>((r) => (onPost = r));
    // A login page whose form POST answers slowly, so the login is in flight when the signal lands.
    const site = http.createServer((req, res) => {
      if (req.method === 'POST') {
        onPost();
        setTimeout(
          () => res.writeHead(302, { location: '/home', 'set-cookie': 'session=abc123def456; HttpOnly; Path=/' }).end(),
          1500,
        );
        return;
      }
      if (req.url === '/home') return res.end('<h1>Welcome back</h1><a href="/logout">Log out</a>');
      res.setHeader('content-type', 'text/html');
      res.end(
        '<form method="post" action="/login"><label>Email <input name="email" type="email" autocomplete="username"></label><label>Password <input name="password" type="password"></label><button type="submit">Sign in</button></form>',
      );
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    const server = await spawnServer(['--port', '0', '--data-dir', tempDir()]);
    try {
      const key = firstRunKey(server);
      const pending = fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          cred: { username: 'a@example.com', password: 'pw-123456' },
          domain: `http://127.0.0.1:${(site.address() as AddressInfo).port}/login`,
        }),
      });
      await posted;
      const browserPids = descendants(server.child.pid!);
      expect(browserPids.length).toBeGreaterThan(0);
      server.child.kill('SIGTERM');
      const res = await pending;
      expect(res.status).toBe(200);
      expect((await res.json()).cookies.map((c: { name: string }) => c.name)).toContain('session');
      expect(await server.exited).toBe(0);
      expect(browserPids.filter(alive)).toEqual([]);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      site.closeAllConnections();
      site.close();
    }
  });
});
