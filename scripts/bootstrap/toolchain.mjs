// Whether native modules can be built from source here, checked before `npm ci` so a missing compiler is a line
// saying what to install rather than a node-gyp stack trace. Only keytar may need it: its install script fetches a
// prebuilt binary from GitHub (not the npm registry) and builds from source when that fails; better-sqlite3 ships
// its binaries inside the npm package. Pure: facts as in scripts/bootstrap/platform.mjs, plus `xcodeTools`
// (macOS: `xcode-select -p` succeeded) and `vcTools` (Windows: vswhere found the C++ build tools).
import { NEEDS } from './packages.mjs';

const WHY = 'keytar downloads a prebuilt binary from GitHub and builds from source where that fails';

export const WINDOWS_BUILD_TOOLS =
  'winget install --id Microsoft.VisualStudio.2022.BuildTools -e --override ' +
  '"--wait --passive --add Microsoft.VisualStudio.Workload.VCTools --includeRecommended"';
export const WINDOWS_PYTHON = 'winget install --id Python.Python.3.12 -e';

/**
 * { missing: what is absent, advice: one message or null, required }. required: on Linux the toolchain is part of
 * the system packages (keytar's prebuilt is often unreachable, and root can install it), so `npm ci` waits for it;
 * on macOS and Windows the prebuilt usually arrives, so the advice is printed and `npm ci` goes ahead.
 * `installLines`: the Linux package manager's line for the missing parts, from the system plan.
 */
export function toolchainCheck(facts, installLines = []) {
  if (facts.platform === 'darwin') {
    if (facts.xcodeTools) return { missing: [], advice: null, required: false };
    return {
      missing: ['Xcode Command Line Tools'],
      advice:
        `The Xcode Command Line Tools are missing (xcode-select -p finds none); ${WHY}, which needs them. ` +
        'Install them with: xcode-select --install',
      required: false,
    };
  }
  if (facts.platform === 'win32') {
    const missing = [];
    const lines = [];
    if (!facts.vcTools) {
      missing.push('Visual Studio Build Tools (C++)');
      lines.push(WINDOWS_BUILD_TOOLS);
    }
    if (!['py', 'python3', 'python'].some((cmd) => facts.has(cmd))) {
      missing.push('Python 3');
      lines.push(WINDOWS_PYTHON);
    }
    if (!missing.length) return { missing, advice: null, required: false };
    return {
      missing,
      advice:
        `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing; ${WHY}, which needs ` +
        `${missing.length > 1 ? 'them' : 'it'} (and Node's headers, which node-gyp then downloads from nodejs.org). ` +
        `Install with:\n  ${lines.join('\n  ')}`,
      required: false,
    };
  }
  const parts = NEEDS.filter((n) => ['python3', 'make', 'cxx', 'libsecret'].includes(n.id));
  const missing = parts.filter((n) => !n.present(facts)).map((n) => n.what);
  if (!missing.length) return { missing, advice: null, required: true };
  const how = installLines.length
    ? `Install with:\n  ${installLines.join('\n  ')}`
    : 'Install them with your package manager.';
  return { missing, advice: `Not found: ${missing.join(', ')}; ${WHY}, which needs them. ${how}`, required: true };
}
