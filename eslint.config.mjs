import tseslint from 'typescript-eslint';
import { layersPlugin } from './scripts/eslint-layers.mjs';

export default tseslint.config(
  // .python: the Python client's test venv (its Playwright driver ships JavaScript and .d.ts files of its own).
  {
    ignores: ['.tmp/**', 'node_modules/**', 'out/**', '**/dist/**', 'bench/results/**', 'coverage/**', '.python/**'],
  },
  {
    files: ['**/*.{ts,tsx,mts}'],
    extends: [tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/boundaries': 'error' },
  },
  {
    // The Electron shell calls APIs that return promises where older Electron returned values (clipboard,
    // dialogs, loadURL): one left un-awaited says "done" too early and its failure is an unhandled rejection.
    // Type-aware, so only here (the shell is small); `void` marks a promise deliberately left to run.
    files: ['src/main/electron/**/*.ts', 'src/main/index.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // which folder of the core may import which: the allow-list in scripts/core-deps.mjs
    files: ['src/main/core/**/*.{ts,tsx}'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/core-folders': 'error' },
  },
);
