// Lint: typescript-eslint strict (type-aware) + react-hooks, and the import boundaries of
// ARCHITECTURE.md. The boundary rules keep code where it can run (no Node in the renderer, no
// Electron outside app/, harness below workspace below ipc). Do not relax them: move the code instead.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'module',
  'net',
  'os',
  'path',
  'process',
  'readline',
  'stream',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib',
];

/** no-restricted-imports with the given regex patterns. */
function forbid(...rules) {
  return {
    'no-restricted-imports': ['error', { patterns: rules.map(([regex, message]) => ({ regex, message })) }],
  };
}

const noNode = [`^(node:.*|${NODE_BUILTINS.join('|')})$`, 'Node modules are main-process only.'];
const noElectron = ['^electron(/.*)?$', "Only src-main/app/ and src-main/index.ts may import 'electron'."];
const layer = (...names) => [
  `(^|/)\\.\\./(\\.\\./)*(${names.join('|')})(/|$)`,
  `This folder may not import ${names.join(', ')} (layering: index → app/server/cli → ipc → workspace → harness → platform → shared).`,
];

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-unnecessary-condition': ['error', { allowConstantLoopConditions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Records used as dictionaries (zustand state, env copies) legitimately drop keys.
      '@typescript-eslint/no-dynamic-delete': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbid(
        noNode,
        noElectron,
        ['(^|/)src-main(/|$)', 'The renderer talks to main only through the IPC contract.'],
        ['^(@anthropic-ai/sdk|ws)$', 'Main-process dependency.'],
      ),
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    rules: forbid(
      noNode,
      noElectron,
      ['^(react|react-dom|zustand|ws|@anthropic-ai/sdk)(/.*)?$', 'src-shared imports only zod.'],
      ['(^|/)(src-main|src-renderer)(/|$)', 'src-shared imports nothing of the other trees.'],
    ),
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/app/**', 'src-main/index.ts'],
    rules: forbid(noElectron, ['(^|/)src-renderer(/|$)|^react', 'Main never imports renderer code.']),
  },
  {
    files: ['src-main/platform/**/*.ts'],
    rules: forbid(noElectron, layer('harness', 'workspace', 'ipc', 'server', 'cli', 'app', 'devtools')),
  },
  {
    files: ['src-main/harness/**/*.ts'],
    rules: forbid(noElectron, layer('workspace', 'ipc', 'server', 'cli', 'app', 'devtools')),
  },
  {
    files: ['src-main/workspace/**/*.ts'],
    rules: forbid(noElectron, layer('ipc', 'server', 'cli', 'app', 'devtools')),
  },
  { files: ['src-main/ipc/**/*.ts'], rules: forbid(noElectron, layer('server', 'cli', 'app', 'devtools')) },
  {
    files: ['src-main/devtools/**/*.ts'],
    rules: forbid(noElectron, layer('workspace', 'ipc', 'server', 'cli', 'app')),
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**/*.ts', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // expect.stringContaining() and friends are typed `any` by design.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-empty-pattern': 'off',
      'no-empty-pattern': 'off',
    },
  },
);
