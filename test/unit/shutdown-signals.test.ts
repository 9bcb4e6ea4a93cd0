// Which signals shut the servers and the desktop app down gracefully, and what the launchers in front of them
// (bootstrap, npm start, npm run serve) do with each, decided per platform: the Windows branch runs here too.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { handleSignalsFor, launcherSignals } from '../../scripts/launcher-signals.mjs';
import { shutdownSignals } from '../../src/main/core/shutdown-signals.js';

const PLATFORMS: NodeJS.Platform[] = ['win32', 'darwin', 'linux'];

describe('shutdownSignals: what the headless server, the MCP server and the desktop app take as "shut down"', () => {
  it('on Windows: Ctrl-C, Ctrl-Break and the console closing; never SIGTERM, which Windows cannot deliver', () => {
    expect(shutdownSignals('win32')).toEqual(['SIGINT', 'SIGBREAK', 'SIGHUP']);
  });

  it.each(['darwin', 'linux'] as const)('on %s: SIGINT and SIGTERM, and not SIGHUP (nohup keeps it ignored)', (p) => {
    expect(shutdownSignals(p)).toEqual(['SIGINT', 'SIGTERM']);
  });
});

describe('launcherSignals: what a launcher does with a signal while its child runs', () => {
  it('on Windows relays nothing (child.kill is TerminateProcess) and outlasts the console events the child gets', () => {
    expect(launcherSignals('win32')).toEqual({ relay: [], leaveToChild: ['SIGINT', 'SIGBREAK', 'SIGHUP'] });
  });

  it.each(['darwin', 'linux'] as const)('on %s relays SIGINT, SIGTERM and SIGHUP to the child', (p) => {
    expect(launcherSignals(p)).toEqual({ relay: ['SIGINT', 'SIGTERM', 'SIGHUP'], leaveToChild: [] });
  });

  it.each(PLATFORMS)('on %s, every signal the server shuts down on reaches it through the launchers', (p) => {
    const { relay, leaveToChild } = launcherSignals(p);
    for (const signal of shutdownSignals(p)) expect([...relay, ...leaveToChild]).toContain(signal);
  });
});

describe('handleSignalsFor', () => {
  const launcher = (platform: NodeJS.Platform) => {
    const proc = new EventEmitter();
    const kills: string[] = [];
    handleSignalsFor({ kill: (signal) => kills.push(signal) }, { platform, proc });
    return { proc, kills };
  };

  it('on Windows listens to Ctrl-C and Ctrl-Break (so Node does not exit on them) and never kills the child', () => {
    const { proc, kills } = launcher('win32');
    for (const signal of ['SIGINT', 'SIGBREAK', 'SIGHUP']) {
      expect(proc.listenerCount(signal), signal).toBe(1);
      proc.emit(signal, signal);
    }
    expect(kills).toEqual([]);
    expect(proc.listenerCount('SIGTERM')).toBe(0);
  });

  it('on Linux passes each signal on to the child', () => {
    const { proc, kills } = launcher('linux');
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) proc.emit(signal, signal);
    expect(kills).toEqual(['SIGTERM', 'SIGINT', 'SIGHUP']);
    expect(proc.listenerCount('SIGBREAK')).toBe(0);
  });
});
