// @ts-check
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import roots from './eslint-rules/web-layers.js';

/** Workspace imports each part may use (ARCHITECTURE.md, "may import"). */
const ALLOWED_WORKSPACE_IMPORTS = {
  'packages/contracts': [],
  'packages/analysis': ['@roots/contracts'],
  'packages/insights': ['@roots/contracts'],
  'packages/checkout': ['@roots/contracts'],
  'packages/secure-fields': ['@roots/contracts'],
  'packages/observability': [],
  'packages/server-kit': [],
  'apps/gateway': ['@roots/contracts', '@roots/secure-fields', '@roots/observability', '@roots/server-kit'],
  'apps/server': ['@roots/contracts', '@roots/analysis', '@roots/insights', '@roots/observability', '@roots/server-kit'],
  'apps/analyzer': ['@roots/contracts', '@roots/analysis', '@roots/observability'],
  'apps/web': ['@roots/contracts', '@roots/checkout', '@roots/insights'],
};
const ALL_WORKSPACES = [
  '@roots/contracts',
  '@roots/analysis',
  '@roots/insights',
  '@roots/checkout',
  '@roots/secure-fields',
  '@roots/observability',
  '@roots/server-kit',
  '@roots/gateway',
  '@roots/analyzer',
  '@roots/server',
  '@roots/web',
];

const workspaceBoundaries = Object.entries(ALLOWED_WORKSPACE_IMPORTS).map(([dir, allowed]) => ({
  files: [`${dir}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: ALL_WORKSPACES.filter((name) => !allowed.includes(name)).map((name) => ({
          group: [name, `${name}/*`],
          message: `${dir} may import only ${allowed.join(', ') || 'no workspace package'} (ARCHITECTURE.md).`,
        })),
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      '**/.cache/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  ...workspaceBoundaries,
  {
    // No import cycles, type-only ones included (STYLE.md habit 2): a cycle is a layer drawn wrong.
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Playwright reads fixture dependencies from the first parameter's object pattern, even when empty.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, roots },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'roots/web-layers': ['error', { webSrc: 'apps/web/src' }],
    },
  },
  {
    files: [
      'scripts/**/*.mjs',
      'bench/**/*.{ts,mjs}',
      'packages/*/bench/**',
      'packages/*/scripts/**',
      'packages/*/bin/**',
      'packages/analysis/src/cli/**',
      '**/*.config.{js,ts}',
      'e2e/**/*.ts',
      'ops/images/*.mjs',
    ],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        Buffer: 'readonly',
        AbortSignal: 'readonly',
      },
    },
    rules: { 'no-console': 'off' },
  },
);
