import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const VSCODE_ONLY_IN_EXTENSION = { name: 'vscode', message: 'Only src/extension may import vscode.' };
/** zod's `z` holds all of zod, and a bundle keeps all it holds (src/protocol/zod.ts). */
const ZOD_NAMESPACE = { name: 'zod', importNames: ['z', 'default'], message: "Import * as z from src/protocol/zod (or name what you use): zod's own z keeps all of zod in every bundle." };

/** The layers' allowed imports (also checked, with cycles, by test/architecture/import-graph.test.ts). */
const layer = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { paths: [VSCODE_ONLY_IN_EXTENSION, ZOD_NAMESPACE], patterns }] },
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.vscode-tools/**', '.vscode-test-run/**', 'test-output/**', 'media/**', '**/*.js', '!scripts/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', fetch: 'readonly', Buffer: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['**/*.cjs', 'scripts/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly', module: 'readonly', __dirname: 'readonly', process: 'readonly', performance: 'readonly', console: 'readonly',
        setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', URL: 'readonly', fetch: 'readonly',
      },
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
    // Type-aware rules: an unhandled promise loses its error; a switch over a union must handle every member.
    files: ['src/**/*.ts', 'webview-ui/src/**/*.ts', 'test/**/*.ts', 'scripts/*.ts', 'bench/**/*.ts', 'examples/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  layer(['src/protocol/**'], [{ group: ['**/runtime/**', '**/sdk/**', '**/extension/**', '**/shared/**', '**/webview-ui/**'], message: 'src/protocol imports nothing of the other layers.' }]),
  // The MCP library's paths contain /sdk/ too; they are a dependency, not this project's SDK.
  layer(['src/runtime/**'], [{ group: ['**/sdk/**', '**/extension/**', '**/shared/**', '**/webview-ui/**', '!@modelcontextprotocol/sdk/**'], message: 'src/runtime may import only src/protocol.' }]),
  layer(['src/sdk/**'], [{ group: ['**/runtime/**', '**/extension/**', '**/shared/**', '**/webview-ui/**'], message: 'src/sdk may import only src/protocol.' }]),
  layer(['src/shared/**'], [{ group: ['**/runtime/**', '**/sdk/**', '**/extension/**', '**/webview-ui/**'], message: 'src/shared may import only src/protocol.' }]),
  layer(['webview-ui/**'], [{ group: ['**/src/runtime/**', '**/src/sdk/**', '**/src/extension/**', 'vscode'], message: 'webview-ui talks to the extension only through the typed messages (src/protocol, src/shared).' }]),
  {
    files: ['src/extension/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [ZOD_NAMESPACE], patterns: [
        { group: ['**/runtime/**'], message: 'The extension talks to the runtime only through the SDK client.' },
        { group: ['**/webview-ui/**'], message: 'Shared chat contracts live in src/shared/chat; the extension does not import webview code.' },
      ] }],
    },
  },
);
