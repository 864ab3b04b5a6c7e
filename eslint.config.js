// Lint gates of STYLE.md: imports go one way (app -> features -> ui, lib, domain), features never
// import each other, the server imports only src/domain, the service worker imports src/lib, src/domain and
// the outbox-kind registry (src/app/outbox-kinds.ts) only, no floating promises, no literal strings in JSX.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import formatjs from 'eslint-plugin-formatjs';
import globals from 'globals';

const FEATURES = [
  'auth', 'dashboard', 'profile', 'companies', 'departments', 'employees',
  'goals', 'suggestions', 'projects', 'registry',
];

const importZones = [
  // Each feature is closed to the others.
  ...FEATURES.map((f) => ({
    target: `./src/features/${f}`,
    from: './src/features',
    except: [`./${f}`],
    message: 'A feature does not import another feature; compose them in src/app.',
  })),
  { target: './src/features', from: './src/app', message: 'Features do not import the app shell.' },
  { target: ['./src/ui', './src/lib', './src/domain'], from: ['./src/app', './src/features'], message: 'ui, lib and domain sit below app and features.' },
  { target: './src/ui', from: './src/lib', message: 'The UI kit has no data access.' },
  { target: './src/domain', from: ['./src/ui', './src/lib', './sw', './server'], message: 'domain is pure TypeScript shared with the server.' },
  { target: './server', from: './src', except: ['./domain'], message: 'The server imports only src/domain.' },
  { target: ['./src', './sw'], from: './server', message: 'The client never imports the server.' },
  // The service worker sends the outbox with the page's code: src/lib, src/domain and, of the app, only the
  // outbox-kind registry (which composes the features' React-free kind modules); never a feature directly.
  { target: './sw', from: './src/features', message: 'The worker reaches feature code only through src/app/outbox-kinds.ts.' },
  { target: './sw', from: './src/app', except: ['./outbox-kinds.ts'], message: 'Of the app shell the worker imports only the outbox-kind registry.' },
  { target: './sw', from: './src/ui', message: 'The worker has no UI.' },
];

// The main-service's features (server/features/<area>) are closed to each other too, except for the edges
// named here: a feature reading another's rows or helpers where that is its job. Shared server code (auth,
// db, route, operation, jobs, mail, ...) sits below every feature and never imports one; app.ts composes them.
const SERVER_FEATURE_EDGES = {
  auth: [], companies: [], departments: [], files: [], push: [], notifications: [],
  session: ['notifications'],
  employees: ['files'],
  invitations: ['employees'],
  suggestions: ['files', 'notifications'],
  goals: ['notifications'],
  projects: ['files', 'notifications', 'suggestions', 'goals'],
  registry: ['notifications', 'projects', 'companies'],
  dashboard: ['projects'],
  demo: ['projects', 'registry'],
  sync: ['suggestions', 'employees', 'departments', 'notifications', 'goals', 'projects', 'registry'],
};
const serverZones = [
  ...Object.entries(SERVER_FEATURE_EDGES).map(([feature, allowed]) => ({
    target: `./server/features/${feature}`,
    from: './server/features',
    except: [`./${feature}`, ...allowed.map((other) => `./${other}`)],
    message: `A server feature imports another only along the edges of SERVER_FEATURE_EDGES (eslint.config.js); ${feature} may import: ${allowed.join(', ') || 'none'}.`,
  })),
  {
    target: ['./server/!(features)/**', './server/!(app|index).ts'],
    from: './server/features',
    message: 'Shared server code sits below the features; app.ts composes them.',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'dev-dist/', 'node_modules/', 'data/', 'coverage/', 'tests/.artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/ignore': ['node_modules'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: importZones }],
      'import-x/no-cycle': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, formatjs },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'formatjs/no-literal-string-in-jsx': 'error',
      'formatjs/enforce-id': ['error', { idInterpolationPattern: '[sha512:contenthash:base64:6]', idWhitelist: ['^[a-z][A-Za-z0-9]*(\\.[A-Za-z0-9]+)+$'] }],
    },
  },
  {
    // The registry and the kinds it composes end up in the service worker: no React, no react-intl at run time.
    files: ['src/app/outbox-kinds.ts', 'src/features/*/outbox-kind.ts', 'src/features/outbox/kinds.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['react', 'react-dom', 'react-intl', 'wouter'].map((name) => ({
            name,
            message: 'The service worker imports this module: types only.',
            allowTypeImports: true,
          })),
          patterns: [{ group: ['**/*.tsx', '**/ui/**'], message: 'The service worker imports this module: no components.' }],
        },
      ],
    },
  },
  {
    // Tests and their fixtures may reach any feature's fixtures and code.
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts', 'server/**/fixtures.ts', 'server/**/test-*.ts', 'server/test-support.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...importZones, ...serverZones] }] },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts', 'scripts/**/*.{js,mjs,ts}'],
    rules: { 'formatjs/no-literal-string-in-jsx': 'off', '@typescript-eslint/no-unsafe-assignment': 'off', '@typescript-eslint/no-unsafe-member-access': 'off' },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
