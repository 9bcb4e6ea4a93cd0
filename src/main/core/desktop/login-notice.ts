// What the desktop app tells the person when a login waits for them (an OS notification, shown by
// src/main/electron/notifications.ts). Pure: unit-tested directly. The same words as the window's banner.
import { isPersonReason, PERSON_TASK } from '../../../shared/person-task.js';

/** The notice for a login that waits for the person on `site` (a host name, no secret). */
export function loginNotice(site: string, reason: string): { title: string; body: string } {
  const task = isPersonReason(reason) ? PERSON_TASK[reason] : 'finish signing in';
  return { title: 'A login needs you', body: `${site.slice(0, 120)}: ${task}. Click to show the page.` };
}
