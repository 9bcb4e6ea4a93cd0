// Reading a password manager's export in the page (FileReader): its text, or base64 for a binary .1pux.
// The content lives only in the import form's state, and only until the import finished.
import { IMPORT_FORMATS } from '../../../shared/credentials.schema.js';

export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const FORMAT_NAMES: Record<ImportFormat, string> = {
  chrome: 'Chrome or Edge (CSV)',
  firefox: 'Firefox (CSV)',
  safari: 'Safari (CSV)',
  bitwarden: 'Bitwarden (unencrypted CSV or JSON)',
  '1password': '1Password (CSV or .1pux)',
  keepassxc: 'KeePassXC (CSV)',
};

export const FORMAT_FILES: Record<ImportFormat, string> = {
  chrome: '.csv',
  firefox: '.csv',
  safari: '.csv',
  bitwarden: '.csv,.json',
  '1password': '.csv,.1pux',
  keepassxc: '.csv',
};

export interface ExportFile {
  name: string;
  size: number;
  content: string;
  encoding: 'utf8' | 'base64';
}

/** A .1pux is a zip archive: sent as base64. Everything else is text. */
const isBinary = (name: string) => /\.1pux$/i.test(name);

function read(file: File, as: 'text' | 'dataUrl'): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read`));
    if (as === 'text') reader.readAsText(file);
    else reader.readAsDataURL(file);
  });
}

export async function readExportFile(file: File): Promise<ExportFile> {
  if (isBinary(file.name)) {
    const url = await read(file, 'dataUrl');
    return { name: file.name, size: file.size, content: url.slice(url.indexOf(',') + 1), encoding: 'base64' };
  }
  return { name: file.name, size: file.size, content: await read(file, 'text'), encoding: 'utf8' };
}
