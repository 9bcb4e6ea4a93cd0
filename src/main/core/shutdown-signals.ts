// Which signals mean "shut down gracefully" (stop accepting, let in-flight logins finish, close the browsers and
// the database) for the headless server, the stdio MCP server and the desktop app, per platform.

/**
 * POSIX: Ctrl-C (SIGINT) and `kill`/service managers (SIGTERM). Not SIGHUP: `nohup` starts the server with SIGHUP
 * ignored so it outlives the terminal, and listening for it would undo that.
 *
 * Windows has no SIGTERM: `kill`, child.kill() and `taskkill /F` are TerminateProcess, which no process sees
 * coming. What arrives are console events, which Node turns into signals: Ctrl-C (SIGINT), Ctrl-Break (SIGBREAK)
 * and the console window closing (SIGHUP; Windows ends the process about 10 s later whatever it does, time
 * enough to close the database).
 */
export function shutdownSignals(platform: NodeJS.Platform): NodeJS.Signals[] {
  if (platform === 'win32') return ['SIGINT', 'SIGBREAK', 'SIGHUP'];
  return ['SIGINT', 'SIGTERM'];
}
