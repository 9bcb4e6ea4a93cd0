// Node flags of the headless API server: `npm start` and `npm run serve` run it with them (scripts/headless-server.mjs),
// and so do the benches.
//
// The young generation capped at 8 MB semi-spaces: on a machine with plenty of memory V8 lets it grow to 128 MB, and
// a busy API server (every request makes short-lived objects) fills all of it — the server of 8 logins at once had a
// PSS of 271 MB, 211 MB with the cap (bench/mixed-load.bench.ts); scavenges of a small live set stay cheap. It must be
// on the command line: V8 sizes the heap at start (v8.setFlagsFromString later had no effect).
//
// The old generation collected once it has grown 20 % over what the last full collection kept: why, and the same
// setting for the Electron main process, in src/main/core/tune-heap.ts (test/unit/tune-heap.test.ts compares them).
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=20'];
