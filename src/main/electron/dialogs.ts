// The questions and notices the desktop shell puts to the person before or beside the window.
import { dialog, type BrowserWindow } from 'electron';
import { portHowTo, type PortInUseChoice } from './api-listen.js';
import type { MissingTool } from './system-tools.js';

export async function askWithoutKeychain(reason: string): Promise<'file' | 'quit'> {
  const { response } = await dialog.showMessageBox({
    type: 'warning',
    title: 'No keychain available',
    message: 'Agent Studio cannot reach the system keychain.',
    detail:
      `${reason}\n\nIt keeps API keys, site credentials and the session-cache key there. You can keep them instead in ` +
      'an encrypted file in the app data folder, with its key in a separate file next to it (anyone who can read both ' +
      'files can read the secrets), or quit and start a keychain first.',
    buttons: ['Use an encrypted file', 'Quit'],
    defaultId: 1,
    cancelId: 1,
  });
  return response === 0 ? 'file' : 'quit';
}

const PORT_CHOICES: PortInUseChoice[] = ['free-port', 'without-api', 'quit'];

export async function askPortInUse(port: number, dataDir: string): Promise<PortInUseChoice> {
  const { response } = await dialog.showMessageBox({
    type: 'warning',
    title: 'Port in use',
    message: `Port ${port} is already in use, so the local API for agents cannot start there.`,
    detail:
      `Another program (or another Agent Studio with a different data folder) listens on 127.0.0.1:${port}.\n\n` +
      `To use another port for good, ${portHowTo(dataDir)}.\n\n` +
      'Or start now on a free port the system picks (for this run only; the tray menu shows and copies the ' +
      'address), or continue without the API: the window works either way.',
    buttons: ['Start on a free port', 'Continue without the API', 'Quit'],
    defaultId: 0,
    cancelId: 1,
  });
  return PORT_CHOICES[response] ?? 'without-api';
}

/** Names what is missing and how to install it; the caller shows it once per set of missing tools. */
export async function showMissingToolsNotice(parent: BrowserWindow | null, missing: MissingTool[]): Promise<void> {
  const options: Electron.MessageBoxOptions = {
    type: 'info',
    title: 'Programs to install',
    message:
      missing.length === 1
        ? 'Agent Studio needs a program that is not installed.'
        : 'Agent Studio needs programs that are not installed.',
    detail:
      missing.map((tool) => `• ${tool.what}\n  ${tool.install}`).join('\n\n') +
      '\n\nEverything else works meanwhile. Restart Agent Studio after installing. This notice is not shown again ' +
      'unless something else goes missing.',
    buttons: ['OK'],
  };
  await (parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options));
}
