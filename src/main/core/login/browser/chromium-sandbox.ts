import fs from 'node:fs';
import path from 'node:path';

/**
 * What decides whether Chromium's sandbox can run for this process, read from the machine (sandboxFacts) or given
 * by a test. Never an environment variable such as CI: a product that behaves differently under CI is not the product
 * the tests check.
 */
export interface SandboxFacts {
  platform: NodeJS.Platform;
  /** The process's user id; undefined where there is none (Windows). */
  uid: number | undefined;
  /** `/proc/sys/kernel/unprivileged_userns_clone` (Debian/Ubuntu kernels), trimmed; null where the file is absent. */
  unprivilegedUsernsClone: string | null;
  /** `/proc/sys/user/max_user_namespaces`, trimmed; null where absent. */
  maxUserNamespaces: string | null;
  /** `/proc/sys/kernel/apparmor_restrict_unprivileged_userns` (Ubuntu 23.10+), trimmed; null where absent. */
  apparmorRestrictsUserns: string | null;
  /** A `chrome-sandbox` next to the Chromium binary, owned by root with the setuid bit: the sandbox without userns. */
  setuidHelper: boolean;
}

export interface SandboxDecision {
  sandbox: boolean;
  /** Why, for the log. */
  why: string;
}

/**
 * On Linux Chromium sandboxes its renderers with unprivileged user namespaces, or else with its setuid helper; as root
 * it refuses to start sandboxed at all. Elsewhere (macOS, Windows) the sandbox needs nothing from us, except that
 * Chromium refuses it as root there too.
 */
export function decideSandbox(f: SandboxFacts): SandboxDecision {
  if (f.uid === 0) return { sandbox: false, why: 'running as root: Chromium refuses its sandbox for root' };
  if (f.platform !== 'linux') return { sandbox: true, why: `the ${f.platform} sandbox needs no setup` };
  if (f.setuidHelper) return { sandbox: true, why: 'setuid chrome-sandbox helper next to the browser' };
  if (f.unprivilegedUsernsClone !== null && f.unprivilegedUsernsClone !== '1') {
    return { sandbox: false, why: 'unprivileged user namespaces are off (kernel.unprivileged_userns_clone)' };
  }
  if (f.maxUserNamespaces !== null && !(Number(f.maxUserNamespaces) > 0)) {
    return { sandbox: false, why: 'no user namespaces allowed (user.max_user_namespaces is 0)' };
  }
  if (f.apparmorRestrictsUserns === '1') {
    return { sandbox: false, why: 'AppArmor restricts unprivileged user namespaces and there is no setuid helper' };
  }
  return { sandbox: true, why: 'unprivileged user namespaces are available' };
}

function readTrimmed(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Chromium looks for its helper next to its own binary (a wrapper script's target is found through realpath). */
function hasSetuidHelper(executablePath: string | undefined): boolean {
  if (!executablePath) return false;
  let dir: string;
  try {
    dir = path.dirname(fs.realpathSync(executablePath));
  } catch {
    return false;
  }
  try {
    const st = fs.statSync(path.join(dir, 'chrome-sandbox'));
    return st.isFile() && st.uid === 0 && (st.mode & 0o4000) !== 0;
  } catch {
    return false;
  }
}

/** The facts of this process and machine for the browser at `executablePath`. */
export function sandboxFacts(executablePath?: string): SandboxFacts {
  const linux = process.platform === 'linux';
  return {
    platform: process.platform,
    uid: typeof process.getuid === 'function' ? process.getuid() : undefined,
    unprivilegedUsernsClone: linux ? readTrimmed('/proc/sys/kernel/unprivileged_userns_clone') : null,
    maxUserNamespaces: linux ? readTrimmed('/proc/sys/user/max_user_namespaces') : null,
    apparmorRestrictsUserns: linux ? readTrimmed('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') : null,
    setuidHelper: linux && hasSetuidHelper(executablePath),
  };
}
