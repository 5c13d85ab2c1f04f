import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

// One-way dependencies between the product's packages (docs/decisions/001), enforced with
// ESLint's own no-restricted-imports: packages import each other by name only, so a rule on the
// package names is enough and needs no import resolver (see docs/decisions/006).
const crossPackageRelative = {
  group: ['../../*/src/**', '../../../*/src/**', '**/packages/**', '**/apps/**'],
  message: 'Import another package by its name (@locadora/...), never by a relative path.',
};
const fastify = {
  group: ['fastify', 'fastify/*', '@fastify/*', 'fastify-*'],
  message: 'Services and repositories stay free of Fastify.',
};
const forbid = (names, message) => ({
  group: names.flatMap((name) => [name, `${name}/*`]),
  message,
});

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
    files: ['packages/locadora-api/**'],
    patterns: [forbid(['@locadora/server'], 'Packages never import the apps that compose them.')],
  },
];

const restricted = (patterns) => ['error', { patterns: [crossPackageRelative, ...patterns] }];

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
  {
    // Services and repositories never import Fastify. Rules replace rather than merge, so the
    // package's own zone is repeated here.
    files: ['packages/*/src/modules/*/servico.ts', 'packages/*/src/modules/*/repositorio.ts'],
    rules: {
      'no-restricted-imports': restricted([
        ...zones.filter((z) => z.files[0] === 'packages/locadora-api/**')[0].patterns,
        fastify,
      ]),
    },
  },
  prettier,
);
