// The desktop side of interactive logins (docs/person-in-the-loop.md#a-visible-browser-window): the core's visible-browser
// finisher, plus a system notification that brings the login window to the front when clicked.
import { Notification } from 'electron';
import { PERSON_TASK } from '../../shared/person-task.js';
import type { BaseCore } from '../core/base-core.js';
import { resolveBrowserExecutable } from '../core/login/browser/browser-resolver.js';
import { VisibleBrowserFinisher, type InteractiveWindow } from '../core/login/interactive/visible-browser-finisher.js';

export function createDesktopFinisher(base: BaseCore): VisibleBrowserFinisher {
  // Shown notifications stay referenced until they close: one that is garbage-collected loses its click.
  const shown = new Set<Notification>();
  const notify = (window: InteractiveWindow) => {
    if (!Notification.isSupported()) return;
    const note = new Notification({
      title: 'A login needs you',
      body: `${new URL(window.origin).host}: ${PERSON_TASK[window.reason]} in the browser window, then press Done.`,
    });
    shown.add(note);
    note.on('click', () => void window.bringToFront().catch(() => undefined));
    note.on('close', () => shown.delete(note));
    note.show();
  };
  return new VisibleBrowserFinisher({
    // Resolved per window, as the login pool does: a browser installed after start-up is found.
    executablePath: () => resolveBrowserExecutable({ configuredPath: base.config.browser.executablePath }).path,
    log: base.log.child({ component: 'login-window' }),
    onOpen: notify,
  });
}
