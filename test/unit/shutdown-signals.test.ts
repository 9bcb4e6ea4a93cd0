// Which signals shut the servers and the desktop app down gracefully, decided per platform: the Windows branch runs
// here too.
import { describe, expect, it } from 'vitest';
import { shutdownSignals } from '../../src/main/core/shutdown-signals.js';

describe('shutdownSignals: what the headless server, the MCP server and the desktop app take as "shut down"', () => {
  it('on Windows: Ctrl-C, Ctrl-Break and the console closing; never SIGTERM, which Windows cannot deliver', () => {
    expect(shutdownSignals('win32')).toEqual(['SIGINT', 'SIGBREAK', 'SIGHUP']);
  });

  it.each(['darwin', 'linux'] as const)('on %s: SIGINT and SIGTERM, and not SIGHUP (nohup keeps it ignored)', (p) => {
    expect(shutdownSignals(p)).toEqual(['SIGINT', 'SIGTERM']);
  });
});
