// Samples a process tree's memory in a process of its own (reading /proc/*/smaps_rollup of a Chromium tree takes
// tens of milliseconds of synchronous work that would stall a bench's load generator). argv: pid, interval in ms.
// Prints the peaks as JSON when its stdin closes.
import { memorySampler } from './stats.js';

const sampler = memorySampler(Number(process.argv[2]), Number(process.argv[3] ?? 500));
process.stdin.resume();
process.stdin.on('end', () => {
  process.stdout.write(`${JSON.stringify(sampler.stop())}\n`);
  process.exit(0);
});
