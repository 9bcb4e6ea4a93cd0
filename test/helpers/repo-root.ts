import path from 'node:path';

/** The repository's root folder, for tests that start its scripts or read its files. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
