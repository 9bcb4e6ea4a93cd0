import tseslint from 'typescript-eslint';
import { layersPlugin } from './scripts/eslint-layers.mjs';

export default tseslint.config(
  { ignores: ['.tmp/**', 'node_modules/**', 'out/**', 'dist/**', 'bench/results/**', 'coverage/**'] },
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
    // which folder of the core may import which: the allow-list in scripts/core-deps.mjs
    files: ['src/main/core/**/*.{ts,tsx}'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/core-folders': 'error' },
  },
);
