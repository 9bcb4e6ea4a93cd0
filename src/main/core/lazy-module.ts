// Optional libraries loaded on first use, not at start: a default server (SQLite, local disk, no IMAP mailbox, no
// MCP client) never needs the S3 SDK, imapflow, mailparser, the MCP SDK or got, and each costs megabytes of heap
// once loaded (issue 25: the server's memory counts against a PSS target). `import type` of them stays static.
import { createRequire } from 'node:module';

export interface LazyModule<T> {
  /** The module, loaded by the first call; every later call gets the same promise. */
  (): Promise<T>;
  /**
   * The module if a load has finished, else undefined: for synchronous code that only needs it when the module
   * is already in use (an error can only be one of got's classes when got has been loaded).
   */
  loaded(): T | undefined;
}

/**
 * `lazyModule(() => import('got'))`: the import runs at the first call and is shared by the calls after it. A
 * failed load is not kept: the next call tries again (the failure itself reaches the caller, unchanged).
 */
export function lazyModule<T>(load: () => Promise<T>): LazyModule<T> {
  let pending: Promise<T> | null = null;
  let value: T | undefined;
  const get = (): Promise<T> => {
    if (!pending) {
      const loading = load().then((module) => (value = module));
      loading.catch(() => {
        if (pending === loading) pending = null;
      });
      pending = loading;
    }
    return pending;
  };
  return Object.assign(get, { loaded: () => value });
}

const requireHere = createRequire(import.meta.url);

/**
 * For a function that is synchronous and must stay so (a parser called from synchronous code): the package is
 * required at the first call, through its CommonJS entry (`require` condition of its exports), and kept. A
 * failed require throws at that call and is tried again at the next.
 */
export function lazyRequire<T>(specifier: string): () => T {
  let value: T | undefined;
  return () => (value ??= requireHere(specifier) as T);
}
