// The app's V8 heap tuning: the old generation is collected once it has grown 20 % over what the last full
// collection kept. V8's own factor (up to 4x for a heap that allocates fast) let the server grow by ~3 MB per 8
// logins without one full collection in 30 s (PSS 145 -> 218 MB) while it kept only ~73 MB alive; with 20 % a full
// collection runs every few seconds under login load (incremental marking, pauses of ~5-20 ms) and the server stays
// at ~125-135 MB (bench/mixed-load.bench.ts).
// The headless server gets it on its command line (scripts/server-node-flags.mjs, the same number: a test compares
// them), which applies from the first collection. The Electron main process takes V8 flags only on its own command
// line, which the app does not control: its entry imports this module first, and V8, which reads the flag at every
// full collection, applies it from the first full collection after the bundle's packages have loaded.
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 20;

v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
