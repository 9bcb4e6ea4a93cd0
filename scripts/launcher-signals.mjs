// What a launcher does with the signals it gets while its child runs: bootstrap's `--then` (every npm script),
// `npm start` (scripts/start.mjs) and `npm run serve` (scripts/headless-server.mjs) each run one child (Node,
// Electron) and exit with its code. Node built-ins only, and runnable on old Node: the bootstrap imports it.

/**
 * Per platform, which signals a launcher relays to its child with child.kill(signal), and which it leaves to the
 * child, which gets them itself (the launcher then only waits for its exit).
 *
 * POSIX: a signal sent to the launcher alone (`kill <pid>`, a service manager) must reach the child, which would
 * otherwise be left running. A Ctrl-C reaches the child directly as well (the whole foreground process group gets
 * it): the headless server takes the relayed copy as the same press.
 *
 * Windows has no signals to relay: child.kill() is TerminateProcess whatever signal it names, a hard kill that
 * skips the child's graceful shutdown (in-flight logins, browsers, the database). Ctrl-C (SIGINT), Ctrl-Break
 * (SIGBREAK) and closing the console window (SIGHUP) are console events that reach every process attached to the
 * console, the child included (Electron attaches to its parent's console too). Without a listener Node exits on
 * them, so the launcher listens, does nothing, and waits to pass on the child's exit code. SIGTERM never arrives
 * on Windows: there is nothing to relay or wait for.
 */
export function launcherSignals(platform) {
  if (platform === 'win32') return { relay: [], leaveToChild: ['SIGINT', 'SIGBREAK', 'SIGHUP'] };
  return { relay: ['SIGINT', 'SIGTERM', 'SIGHUP'], leaveToChild: [] };
}

/**
 * Installs this launcher's signal handling for `child` (see launcherSignals). `proc` and `platform` are this
 * process's unless given.
 */
export function handleSignalsFor(child, { platform = process.platform, proc = process } = {}) {
  const { relay, leaveToChild } = launcherSignals(platform);
  for (const signal of relay) proc.on(signal, () => child.kill(signal));
  for (const signal of leaveToChild) proc.on(signal, () => {});
}
