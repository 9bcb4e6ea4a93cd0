// The export fixtures (test/fixtures/password-exports/README.md) and the 1PUX archive built from its JSON.
import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';

const DIR = new URL('../../../../fixtures/password-exports/', import.meta.url);

/** A fixture file's bytes, as the app reads an uploaded file. */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(name, DIR)));
}

export function fixtureText(name: string): string {
  return readFileSync(new URL(name, DIR), 'utf8');
}

/** A .1pux as 1Password 8 writes it: export.attributes, export.data and files/ in a ZIP. */
export function onePux(exportData: Uint8Array | string = fixture('1password-export.data.json')): Uint8Array {
  return zipSync({
    'export.attributes': strToU8(
      JSON.stringify({ version: 3, description: '1Password Unencrypted Export', createdAt: 1700000600 }),
    ),
    'export.data': typeof exportData === 'string' ? strToU8(exportData) : exportData,
    files: {},
  });
}

/** Every secret and note text in the fixtures: none may appear in an error message or a plan's reason. */
export const SECRET_MARKERS = [
  's3cret',
  'JBSWY3DPEHPK3PXP',
  'GEZDGNBVGY3TQOJQ',
  '4111111111111111',
  'Shared account',
  'first line of the note',
  'Store card on file',
  'Recovery',
  'Rotate every',
  'Key in ~/.ssh',
  'PIN only',
  'SSID',
];
