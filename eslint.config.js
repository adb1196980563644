// @ts-check
import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Workspace imports each part may use (ARCHITECTURE.md, "may import"). */
const ALLOWED_WORKSPACE_IMPORTS = {
  'packages/contracts': [],
  'packages/analysis': ['@roots/contracts'],
  'packages/insights': ['@roots/contracts'],
  'packages/checkout': ['@roots/contracts'],
  'packages/secure-fields': ['@roots/contracts'],
  'apps/gateway': ['@roots/contracts', '@roots/secure-fields'],
  'apps/server': ['@roots/contracts', '@roots/analysis', '@roots/insights'],
  'apps/web': ['@roots/contracts', '@roots/checkout', '@roots/insights'],
};
const ALL_WORKSPACES = [
  '@roots/contracts',
  '@roots/analysis',
  '@roots/insights',
  '@roots/checkout',
  '@roots/secure-fields',
  '@roots/gateway',
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

/** Inside the web app: lib and components/ui never import features or app; no feature imports another. */
const WEB = './apps/web/src';
const features = existsSync(`${WEB}/features`) ? readdirSync(`${WEB}/features`) : [];
const webZones = [
  { target: `${WEB}/lib`, from: [`${WEB}/features`, `${WEB}/app`, `${WEB}/components`], message: 'lib is the bottom layer.' },
  { target: `${WEB}/components`, from: [`${WEB}/features`, `${WEB}/app`], message: 'components/ui may not import features or app.' },
  { target: `${WEB}/features`, from: `${WEB}/app`, message: 'features may not import app; app composes features.' },
  ...features.map((feature) => ({
    target: `${WEB}/features/${feature}`,
    from: `${WEB}/features`,
    except: [`./${feature}`],
    message: 'A feature never imports another feature; compose them in app/routes.',
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      '.cache/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver': {
        typescript: { project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'], noWarnOnMultipleProjects: true },
        node: true,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
      'import-x/no-cycle': 'error',
    },
  },
  ...workspaceBoundaries,
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { zones: webZones }],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'bench/**/*.{ts,mjs}', '**/*.config.{js,ts}', 'e2e/**/*.ts'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: { 'no-console': 'off' },
  },
);
