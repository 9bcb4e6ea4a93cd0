// A stand-in for the `electron` module, so the built main bundle (out/main/index.js) runs in plain Node where
// no Electron binary can be downloaded: `node --import ./electron-stand-in.mjs out/main/index.js`, forked with
// an IPC channel. Every `import … from 'electron'` (the bundle's, electron-store's) resolves to this file. It
// answers as Electron would for what the shell calls, records what the shell did (trays made, tooltips,
// permission handlers, the app protocol), and takes orders from the test (invoke a channel, click a tray item,
// emit an OS event, quit). Everything else (the core, the API server, SQLite, electron-store) is the real thing.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { registerHooks } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: import.meta.url, shortCircuit: true, format: 'module' };
    return nextResolve(specifier, context);
  },
});

const report = (message) => process.send?.(message);
const record = {
  appUserModelId: null,
  traysMade: 0,
  traysDestroyed: 0,
  tooltip: null,
  menu: [],
  clipboard: null,
  schemes: [],
  errorBoxes: [],
  notificationsShown: 0,
  loginItemSettings: [],
};

class StandInEvent {
  defaultPrevented = false;
  preventDefault() {
    this.defaultPrevented = true;
  }
}

// ---- app ----------------------------------------------------------------------------------------------------
const paths = { userData: path.join(os.tmpdir(), 'agent-studio-stand-in') };
let quitting = false;
class App extends EventEmitter {
  // A test may play the installed app (its executable is then this Node binary: process.execPath).
  isPackaged = process.env.STAND_IN_PACKAGED === '1';
  #ready = new Promise((resolve) => setImmediate(resolve));
  whenReady() {
    return this.#ready;
  }
  getPath(name) {
    return paths[name] ?? os.tmpdir();
  }
  setPath(name, value) {
    paths[name] = value;
  }
  getVersion() {
    return '0.0.0-stand-in';
  }
  getName() {
    return 'Agent Studio';
  }
  requestSingleInstanceLock() {
    return true;
  }
  setAppUserModelId(id) {
    record.appUserModelId = id;
  }
  /** As on Linux, where Electron has no login items: nothing set, nothing opened at login. */
  getLoginItemSettings() {
    return { openAtLogin: false, wasOpenedAtLogin: false, executableWillLaunchAtLogin: false, launchItems: [] };
  }
  setLoginItemSettings(settings) {
    record.loginItemSettings.push(settings);
  }
  /** As Electron: before-quit (which may be prevented), then the windows close, then will-quit and quit. */
  quit() {
    if (quitting) return;
    const event = new StandInEvent();
    this.emit('before-quit', event);
    if (event.defaultPrevented) return;
    quitting = true;
    for (const win of [...windows]) win.close();
    this.emit('will-quit', new StandInEvent());
    this.emit('quit', new StandInEvent(), 0);
    this.exit(0);
  }
  exit(code = 0) {
    report({ type: 'exit', code, record });
    // Let the message reach the test before the process ends.
    setImmediate(() => process.exit(code));
  }
}
export const app = new App();

// ---- windows ------------------------------------------------------------------------------------------------
const windows = new Set();
class WebContents extends EventEmitter {
  url = '';
  send() {}
  isDestroyed() {
    return false;
  }
  getURL() {
    return this.url;
  }
  setWindowOpenHandler() {}
}

export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return [...windows];
  }
  #visible = false;
  #destroyed = false;
  constructor(options) {
    super();
    this.options = options;
    this.bounds = { x: 0, y: 0, width: options.width ?? 800, height: options.height ?? 600 };
    this.webContents = new WebContents();
    windows.add(this);
    app.emit('web-contents-created', new StandInEvent(), this.webContents);
  }
  async loadURL(url) {
    this.webContents.url = url;
    setImmediate(() => this.emit('ready-to-show'));
  }
  show() {
    this.#visible = true;
    this.emit('show');
  }
  hide() {
    this.#visible = false;
  }
  focus() {}
  restore() {}
  maximize() {}
  isMaximized() {
    return false;
  }
  isMinimized() {
    return false;
  }
  isVisible() {
    return this.#visible;
  }
  isFocused() {
    return false;
  }
  isDestroyed() {
    return this.#destroyed;
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  close() {
    if (this.#destroyed) return;
    this.emit('close', new StandInEvent());
    this.#destroyed = true;
    windows.delete(this);
    this.emit('closed');
    if (windows.size === 0 && !quitting) app.emit('window-all-closed');
  }
}

const display = { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } };
export const screen = { getPrimaryDisplay: () => display, getAllDisplays: () => [display] };
export const nativeTheme = Object.assign(new EventEmitter(), { themeSource: 'system', shouldUseDarkColors: false });

// ---- tray, menus, clipboard, notifications, dialogs --------------------------------------------------------
export const nativeImage = {
  createFromPath: (file) => ({ file, isEmpty: () => !fs.existsSync(file), setTemplateImage() {} }),
};

export class Tray extends EventEmitter {
  #destroyed = false;
  constructor(image) {
    super();
    this.image = image;
    record.traysMade += 1;
    report({ type: 'tray-made', icon: image.file });
  }
  setToolTip(text) {
    record.tooltip = text;
  }
  setContextMenu(menu) {
    record.menu = menu.items;
  }
  destroy() {
    this.#destroyed = true;
    record.traysDestroyed += 1;
  }
  isDestroyed() {
    return this.#destroyed;
  }
}

export const Menu = { buildFromTemplate: (items) => ({ items }) };

export const clipboard = {
  async writeText(text) {
    record.clipboard = text;
  },
  async readText() {
    return record.clipboard ?? '';
  },
  clear() {
    record.clipboard = null;
  },
};

export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(options) {
    super();
    this.options = options;
  }
  show() {
    record.notificationsShown += 1;
  }
}

export const dialog = {
  showMessageBox: async () => ({ response: 0, checkboxChecked: false }),
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  showSaveDialog: async () => ({ canceled: true }),
  showErrorBox: (title, content) => {
    record.errorBoxes.push(title);
    report({ type: 'error-box', title, content });
  },
};

export const shell = {
  openExternal: async () => undefined,
  openPath: async () => '',
  showItemInFolder: () => undefined,
};

/** Electron's crash reporter: what the app started it with is reported (uploads must stay off). */
export const crashReporter = {
  start(options) {
    report({ type: 'crash-reporter-started', options, dumps: app.getPath('crashDumps') });
  },
};

export const powerMonitor = new EventEmitter();

// ---- IPC, session, protocol ---------------------------------------------------------------------------------
const handlers = new Map();
export const ipcMain = Object.assign(new EventEmitter(), {
  handle: (channel, handler) => handlers.set(channel, handler),
  removeHandler: (channel) => handlers.delete(channel),
});

const sessionHandlers = {};
export const session = {
  defaultSession: {
    webRequest: { onHeadersReceived: (fn) => (sessionHandlers.headers = fn) },
    setPermissionRequestHandler: (fn) => (sessionHandlers.permissionRequest = fn),
    setPermissionCheckHandler: (fn) => (sessionHandlers.permissionCheck = fn),
    setDevicePermissionHandler: (fn) => (sessionHandlers.device = fn),
  },
};

const protocolHandlers = new Map();
export const protocol = {
  registerSchemesAsPrivileged: (schemes) => record.schemes.push(...schemes.map((s) => s.scheme)),
  handle: (scheme, handler) => protocolHandlers.set(scheme, handler),
};

/** As Electron's net.fetch of a file:// URL: the file, or a rejection (net::ERR_FILE_NOT_FOUND) when missing. */
export const net = {
  async fetch(url) {
    const body = await fs.promises.readFile(fileURLToPath(url)).catch(() => {
      throw new Error('net::ERR_FILE_NOT_FOUND');
    });
    return new Response(body, { status: 200 });
  },
};

// ---- orders from the test -----------------------------------------------------------------------------------
const orders = {
  state: () => ({
    ...record,
    menu: record.menu.map((item) => item.label ?? item.type),
    channels: handlers.size,
    windows: windows.size,
  }),
  /** An app event as the OS would send it, e.g. 'second-instance' with the second launch's argv. */
  appEvent({ event, args = [] }) {
    app.emit(event, new StandInEvent(), ...args);
    return null;
  },
  async invoke({ channel, args, senderUrl }) {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler({ senderFrame: { url: senderUrl } }, args);
  },
  clickTray({ label }) {
    const item = record.menu.find((i) => typeof i.label === 'string' && i.label.startsWith(label));
    if (!item) throw new Error(`no tray menu item "${label}"`);
    item.click?.({ checked: !item.checked });
    return null;
  },
  permission({ permission, url }) {
    let granted = null;
    sessionHandlers.permissionRequest(null, permission, (ok) => (granted = ok), { requestingUrl: url });
    // Electron's origin of a standard scheme (app://renderer); Node's URL says "null" for one it does not know.
    const { protocol: scheme, host } = new URL(url);
    const checked = sessionHandlers.permissionCheck(null, permission, `${scheme}//${host}`, {});
    return { granted, checked };
  },
  async appProtocol({ url }) {
    const res = await protocolHandlers.get('app')(new Request(url));
    return { status: res.status, csp: res.headers.get('content-security-policy') };
  },
  powerShutdown() {
    const event = new StandInEvent();
    powerMonitor.emit('shutdown', event);
    return { prevented: event.defaultPrevented };
  },
};

process.on('message', (message) => {
  if (!message || typeof message !== 'object' || !(message.type in orders)) return;
  Promise.resolve()
    .then(() => orders[message.type](message))
    .then(
      (value) => report({ type: 'reply', id: message.id, value }),
      (err) => report({ type: 'reply', id: message.id, error: String(err?.message ?? err) }),
    );
});

export const webUtils = {};
export const contextBridge = {};
export const ipcRenderer = undefined;

export default {
  app,
  BrowserWindow,
  clipboard,
  contextBridge,
  crashReporter,
  dialog,
  ipcMain,
  ipcRenderer,
  Menu,
  nativeImage,
  nativeTheme,
  net,
  Notification,
  powerMonitor,
  protocol,
  screen,
  session,
  shell,
  Tray,
  webUtils,
};
