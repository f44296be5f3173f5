import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.vscode-tools/**', '.vscode-test-run/**', 'test-output/**', 'media/**', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', fetch: 'readonly', Buffer: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'readonly', __dirname: 'readonly', process: 'readonly', performance: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [] }],
    },
  },
  {
    files: ['src/runtime/**', 'src/protocol/**', 'src/sdk/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Only src/extension may import vscode.' }] }],
    },
  },
  {
    files: ['src/sdk/**', 'src/protocol/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'Only src/extension may import vscode.' }],
        patterns: [{ group: ['**/runtime/**', '**/extension/**'], message: 'protocol and sdk must not import runtime or extension code.' }],
      }],
    },
  },
  {
    files: ['src/extension/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/runtime/**'], message: 'The extension talks to the runtime only through the SDK client.' }] }],
    },
  },
);
