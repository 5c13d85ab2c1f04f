import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

// One-way dependencies between the product's packages (docs/decisions/001), enforced with
// ESLint's own no-restricted-imports: packages import each other by name only, so a rule on the
// package names is enough and needs no import resolver (see docs/decisions/006).
const crossPackageRelative = {
  group: ['../../*/src/**', '../../../*/src/**', '**/packages/**', '**/apps/**'],
  message: 'Import another package by its name (@locadora/...), never by a relative path.',
};
const fastify = {
  group: ['fastify', 'fastify/*', '@fastify/*', 'fastify-*'],
  message:
    'Services, repositories, the workflow engine and the socket gateway stay free of Fastify: they take plain dependencies (docs/decisions/032).',
};
const forbid = (names, message) => ({
  group: names.flatMap((name) => [name, `${name}/*`]),
  message,
});

const sinoClientKnowsNoLocadora = forbid(
  ['@locadora/api', '@locadora/contract', '@locadora/web', '@locadora/server'],
  "Sino's client is Sino's: it knows nothing of Locadora (docs/decisions/011).",
);

const zones = [
  {
    files: ['packages/locadora-contract/**'],
    patterns: [
      forbid(
        ['@locadora/api', '@locadora/db', '@locadora/server', 'fastify', 'drizzle-orm'],
        'The contract is shared with the browser: it depends on nothing server-side.',
      ),
    ],
  },
  {
    files: ['packages/db/**'],
    patterns: [
      forbid(
        ['@locadora/api', '@locadora/contract', '@locadora/server'],
        'The database layer knows no product half.',
      ),
    ],
  },
  {
    files: ['packages/login/**'],
    patterns: [
      forbid(
        ['@locadora/api', '@locadora/contract', '@locadora/server', '@sino/core'],
        'Signing in knows no product half.',
      ),
    ],
  },
  {
    files: ['apps/web/src/**'],
    patterns: [
      forbid(
        ['@locadora/api', '@locadora/db', '@locadora/server', 'fastify', 'drizzle-orm', 'pg'],
        'The web app runs in the browser: it talks to the server over HTTP only.',
      ),
      forbid(
        ['@sino/core', '@sino/client'],
        "Sino's server API takes a secret API key, which never reaches the browser: the bell uses the widget API.",
      ),
    ],
  },
  {
    files: ['apps/console/src/**'],
    patterns: [
      forbid(
        ['@locadora/api', '@locadora/db', '@locadora/server', 'fastify', 'drizzle-orm', 'pg'],
        "Sino's console runs in the browser: it talks to the server over HTTP only.",
      ),
      forbid(
        ['@sino/core', '@sino/client'],
        "The console acts with the person's session token, never an API key in its code.",
      ),
    ],
  },
  {
    files: ['apps/console/src/{components,lib}/**'],
    patterns: [
      {
        group: ['**/features/**', '**/app/**'],
        message: 'Shared code imports no feature or app code.',
      },
    ],
  },
  {
    files: ['apps/console/src/features/**'],
    patterns: [
      { group: ['**/app/**'], message: 'Features do not import the app shell.' },
      {
        regex: '^\\.\\./\\.\\./(?!\\.\\./)[^.]',
        message: 'A feature imports only itself and shared code, never another feature.',
      },
    ],
  },
  // bulletproof-react's one-way flow: shared code -> features -> app. A feature imports only
  // itself and shared code, so features can be changed (or removed) one at a time.
  {
    files: ['apps/web/src/{components,lib,config}/**'],
    patterns: [
      {
        group: ['**/features/**', '**/app/**'],
        message: 'Shared code imports no feature or app code.',
      },
    ],
  },
  {
    files: ['apps/web/src/features/**'],
    patterns: [
      { group: ['**/app/**'], message: 'Features do not import the app shell.' },
      {
        regex: '^\\.\\./\\.\\./(?!\\.\\./)[^.]',
        message: 'A feature imports only itself and shared code, never another feature.',
      },
    ],
  },
  {
    files: ['packages/locadora-api/**'],
    patterns: [
      forbid(['@locadora/server'], 'Packages never import the apps that compose them.'),
      forbid(
        ['@sino/core'],
        'Locadora reaches Sino through its HTTP API, like any customer: use @sino/client (docs/decisions/011).',
      ),
    ],
  },
  // Sino is a product of its own: Locadora reaches it only through its HTTP API.
  {
    files: ['packages/sino-core/**'],
    patterns: [
      forbid(
        ['@locadora/api', '@locadora/contract', '@locadora/web', '@locadora/server'],
        'Sino knows nothing of Locadora (docs/decisions/009).',
      ),
    ],
  },
  // Sino's typed client: its scripts and tests build Sino to read its routes; the client itself
  // (src) is the generated types over openapi-fetch, and carries no server code to its users.
  {
    files: ['packages/sino-client/**'],
    patterns: [sinoClientKnowsNoLocadora],
  },
  {
    files: ['packages/sino-client/src/**'],
    patterns: [
      sinoClientKnowsNoLocadora,
      forbid(
        [
          '@sino/core',
          '@locadora/db',
          'fastify',
          '@fastify/*',
          'drizzle-orm',
          'openapi-typescript',
        ],
        'The client talks HTTP only: the generated types (src/schema.d.ts) describe Sino, only scripts and tests build it (docs/decisions/011).',
      ),
    ],
  },
  // Sino's embeddable inbox client is published on its own and runs in browsers: HTTP and the
  // socket only, no server code (its tests build Sino with sino-core's test harness).
  {
    files: ['packages/sino-js/src/**'],
    patterns: [
      sinoClientKnowsNoLocadora,
      forbid(
        [
          '@sino/core',
          '@sino/client',
          '@sino/shared',
          '@locadora/db',
          'fastify',
          'drizzle-orm',
          'zod',
        ],
        'The inbox client is published alone and runs in the browser: it talks HTTP and socket.io only.',
      ),
    ],
  },
  // Sino's React inbox runs in the host's browser too: it reaches Sino through @sino/js only.
  {
    files: ['packages/sino-react/**'],
    patterns: [
      sinoClientKnowsNoLocadora,
      forbid(
        ['@sino/core', '@sino/client', '@locadora/db', 'fastify', 'drizzle-orm', 'pg'],
        "Sino's React inbox runs in the browser: it reaches Sino through @sino/js only.",
      ),
    ],
  },
  {
    files: ['packages/shared/**'],
    patterns: [
      forbid(
        ['@sino/core', '@locadora/api', '@locadora/db', 'fastify', 'drizzle-orm'],
        "Sino's shared vocabulary runs anywhere, the browser included: it depends on nothing.",
      ),
    ],
  },
];

// Barrels that load a whole library at every start (date-fns: 300 modules for one function;
// jose: every algorithm): import the function's own subpath (`date-fns/format`,
// `jose/jwt/verify`), as the server's start time needs (bench/README.md, bench:inicio).
const barrels = [
  { name: 'date-fns', message: "Import the function's subpath: `date-fns/format`." },
  {
    name: 'jose',
    message: 'Import the subpath: `jose/jwt/sign`, `jose/jwt/verify`, `jose/errors`.',
  },
];

const restricted = (patterns) => [
  'error',
  { paths: barrels, patterns: [crossPackageRelative, ...patterns] },
];

// Where Fastify may not be imported, per package: every service and repository module (and the
// wiring that builds them), Sino's workflow engine and its socket gateway. They take plain
// dependencies (repositories, a `Log`, node's HTTP server); the plugins and routes adapt Fastify
// to them.
const freeOfFastify = [
  {
    zone: 'packages/locadora-api/**',
    files: ['packages/locadora-api/src/**/*{servico,repositorio}*.ts'],
  },
  {
    zone: 'packages/sino-core/**',
    files: [
      'packages/sino-core/src/**/*{service,repositor}*.ts',
      'packages/sino-core/src/engine/**',
      'packages/sino-core/src/realtime/**',
    ],
  },
];
const patternsOfZone = (folder) => zones.find((z) => z.files.includes(folder)).patterns;

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', '**/drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': restricted([]),
    },
  },
  ...zones.map(({ files, patterns }) => ({
    files,
    rules: { 'no-restricted-imports': restricted(patterns) },
  })),
  // Rules replace rather than merge, so the package's own zone is repeated with Fastify's.
  ...freeOfFastify.map(({ zone, files }) => ({
    files,
    rules: { 'no-restricted-imports': restricted([...patternsOfZone(zone), fastify]) },
  })),
  {
    files: [
      'apps/web/**/*.{ts,tsx}',
      'apps/console/**/*.{ts,tsx}',
      'packages/sino-react/**/*.{ts,tsx}',
    ],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  prettier,
);
