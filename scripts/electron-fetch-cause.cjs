// Preloaded (`node --require`) into Electron's installer by scripts/electron-binary.mjs. Node's fetch rejects with
// "fetch failed" and keeps why (ENOTFOUND github.com, ECONNREFUSED, a proxy or certificate error) in err.cause, which
// the installer's console.error(err.stack) does not print; `npm start` would then say only "fetch failed". This
// wraps fetch so that the error's message names the address and the cause. Nothing else about fetch changes.
'use strict';

const realFetch = globalThis.fetch;

/** The address fetched, without the user name, password or query (a token) a mirror's URL may carry. */
function address(input) {
  try {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    url.username = '';
    url.password = '';
    url.search = '';
    return url.href;
  } catch {
    return 'an invalid address';
  }
}

globalThis.fetch = async function fetchWithCause(input, init) {
  try {
    return await realFetch(input, init);
  } catch (err) {
    const cause = err && err.cause;
    if (!cause) throw err;
    // "connect ECONNREFUSED 127.0.0.1:80" names its code; an AggregateError (every address refused) has only the code.
    const why =
      cause.message && (!cause.code || cause.message.includes(cause.code))
        ? cause.message
        : [cause.code, cause.message].filter(Boolean).join(' ');
    throw new Error(`${err.message} (${address(input)}): ${why}`, { cause: err });
  }
};
