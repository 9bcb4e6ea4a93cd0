// Types of scripts/launcher-signals.mjs for the TypeScript tests.
import type { EventEmitter } from 'node:events';

export interface LauncherSignals {
  /** Passed on with child.kill(signal). */
  relay: NodeJS.Signals[];
  /** Reach the child by themselves: listened to (so the launcher stays) and otherwise ignored. */
  leaveToChild: NodeJS.Signals[];
}
export function launcherSignals(platform: NodeJS.Platform): LauncherSignals;
export function handleSignalsFor(
  child: { kill(signal: NodeJS.Signals): unknown },
  options?: { platform?: NodeJS.Platform; proc?: Pick<EventEmitter, 'on'> },
): void;
