import type { BrowserContext, ConsoleMessage } from 'playwright-core';

/** What STORAGE_WATCH_SCRIPT's console.debug lines start with. */
const PREFIX = '[agent-studio] indexedDB write ';

/**
 * Init script (every document, frames too): reports each IndexedDB record a page writes - database,
 * store and key names, never values - so a login whose session lands in IndexedDB (Firebase, MSAL,
 * Amplify keep it there) is seen, and captured, even when the request did not ask for IndexedDB.
 * Reported to the engine as a console.debug line rather than kept in the page: the app usually
 * writes the record and navigates away at once, and a log in the page would go with the document.
 * (A binding would do too, but costs every login a little, IndexedDB or not; a console line costs
 * only the pages that write.)
 */
export const STORAGE_WATCH_SCRIPT = `(() => {
  try {
    if (typeof IDBObjectStore === 'undefined' || IDBObjectStore.prototype.put.__agentStudio) return;
    for (const method of ['put', 'add']) {
      const original = IDBObjectStore.prototype[method];
      const watched = function (value, key) {
        try {
          let k = key;
          if (k === undefined && typeof this.keyPath === 'string' && value && typeof value === 'object') k = value[this.keyPath];
          console.debug('${PREFIX}' + this.transaction.db.name + '/' + this.name + '/' + (typeof k === 'string' ? k.slice(0, 120) : ''));
        } catch {}
        return original.apply(this, arguments);
      };
      watched.__agentStudio = true;
      IDBObjectStore.prototype[method] = watched;
    }
  } catch {}
})();`;

/** The IndexedDB records the pages of one login context wrote: 'database/store/key' -> epoch ms of the last write. */
export class IndexedDBWriteLog {
  private readonly writes = new Map<string, number>();

  /** Receives the reports of STORAGE_WATCH_SCRIPT from every page and frame of `ctx`. */
  attach(ctx: BrowserContext): void {
    ctx.on('console', (message: ConsoleMessage) => {
      if (message.type() !== 'debug' || this.writes.size > 500) return;
      const text = message.text();
      if (text.startsWith(PREFIX)) this.writes.set(text.slice(PREFIX.length, PREFIX.length + 300), Date.now());
    });
  }

  /** A copy, so a look before a submit can be compared with one after it. */
  snapshot(): Map<string, number> {
    return new Map(this.writes);
  }
}
