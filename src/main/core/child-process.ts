import fs from 'node:fs';
import path from 'node:path';

let setpriv: string | null | undefined;

function findSetpriv(): string | null {
  if (setpriv !== undefined) return setpriv;
  setpriv = null;
  if (process.platform !== 'linux') return setpriv;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const candidate = path.join(dir, 'setpriv');
    if (dir && fs.existsSync(candidate)) return (setpriv = candidate);
  }
  return setpriv;
}

/**
 * The command line of a child that must not outlive this process, even when it is killed with -9:
 * on Linux the child is started through util-linux's `setpriv --pdeathsig KILL`, which asks the kernel
 * to kill it when its parent dies and then execs it (same pid, same arguments). Elsewhere the command
 * is unchanged; a restart's sweep of leftovers covers those systems.
 */
/** Whether a process of this machine is running (EPERM: it is, but another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function tiedToParent(binary: string, args: string[]): { command: string; args: string[] } {
  const wrapper = findSetpriv();
  return wrapper
    ? { command: wrapper, args: ['--pdeathsig', 'KILL', '--', binary, ...args] }
    : { command: binary, args };
}
