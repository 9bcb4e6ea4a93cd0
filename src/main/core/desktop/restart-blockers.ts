// What a restart of the app (to install an update) would cut off, asked of the running core: logins (a fresh login
// with an id, waiting for a person included, and anything else using the login browser: a login without an id, a
// signup, a session check) and videos being made (a render or provider job that began; queued ones wait in the
// persistent job queue and start after the restart). Null when nothing runs.
import type { Core } from '../create-core.js';

const count = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

export function restartBlocker(core: Pick<Core, 'login' | 'video'>): string | null {
  const browser = core.login.browsers.stats();
  const logins = Math.max(core.login.runs.runningCount(), browser.running + browser.queued);
  const videos = core.video.generations.startedCount();
  const running = [
    logins ? `${count(logins, 'login', 'logins')} running` : null,
    videos ? `${count(videos, 'video', 'videos')} being made` : null,
  ].filter((part) => part !== null);
  if (!running.length) return null;
  return `Waiting for ${running.join(' and ')}: the restart happens once ${logins + videos === 1 ? 'it ends' : 'they end'}.`;
}
