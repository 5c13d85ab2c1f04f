import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildInputs, sourceStamp, whyBuild, writeStamp } from '../build-stamp.mjs';

// A repository in miniature: two workspaces, their sources, tests and settings, and a build.
let root: string;
const write = (file: string, text: string) => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  write('package.json', JSON.stringify({ workspaces: ['packages/*', 'apps/*'] }));
  write('package-lock.json', '{"lockfileVersion":3}');
  write('tsconfig.base.json', '{}');
  write('packages/db/package.json', '{"name":"@x/db"}');
  write('packages/db/tsconfig.build.json', '{}');
  write('packages/db/src/index.ts', 'export const a = 1;\n');
  write('packages/db/src/worker.mjs', 'export const b = 2;\n');
  write('packages/db/src/index.test.ts', 'test\n');
  write('packages/db/test/db.test.ts', 'test\n');
  write('packages/db/README.md', 'read me\n');
  write('apps/web/package.json', '{"name":"@x/web"}');
  write('apps/web/index.html', '<div id="root"></div>\n');
  write('apps/web/src/main.tsx', 'render();\n');
  write('apps/web/public/favicon.svg', '<svg/>\n');
  // What a finished build leaves.
  write('apps/server/dist/main.js', '');
  write('apps/web/dist/index.html', '');
  write('apps/console/dist/index.html', '');
  writeStamp(sourceStamp(root), root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the build stamp', () => {
  it('covers sources, settings and the lock file, and leaves out tests, notes and outputs', () => {
    expect(buildInputs(root)).toEqual([
      'apps/web/index.html',
      'apps/web/package.json',
      'apps/web/public/favicon.svg',
      'apps/web/src/main.tsx',
      'package-lock.json',
      'package.json',
      'packages/db/package.json',
      'packages/db/src/index.ts',
      'packages/db/src/worker.mjs',
      'packages/db/tsconfig.build.json',
      'tsconfig.base.json',
    ]);
  });

  it('finds a build that matches its sources up to date, whatever their times', () => {
    expect(whyBuild(root)).toBeUndefined();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'packages/db/src/index.ts'), later, later);
    expect(whyBuild(root)).toBeUndefined();
  });

  it('is not moved by a test, a test file in src/ or a README', () => {
    write('packages/db/test/db.test.ts', 'another test\n');
    write('packages/db/src/index.test.ts', 'another test\n');
    write('packages/db/test/new.test.ts', 'new\n');
    write('packages/db/README.md', 'read me again\n');
    expect(whyBuild(root)).toBeUndefined();
  });

  it.each([
    ['a source edited', () => write('packages/db/src/index.ts', 'export const a = 2;\n')],
    ['a file the code reads edited', () => write('packages/db/src/worker.mjs', '//\n')],
    ['a source added', () => write('apps/web/src/novo.tsx', 'x\n')],
    ['a source removed', () => rmSync(join(root, 'apps/web/src/main.tsx'))],
    [
      'a source renamed',
      () =>
        renameSync(join(root, 'packages/db/src/index.ts'), join(root, 'packages/db/src/main.ts')),
    ],
    ['a dependency changed in the lock file', () => write('package-lock.json', '{}')],
    ['a build setting changed', () => write('packages/db/tsconfig.build.json', '{"a":1}')],
    ['the web page changed', () => write('apps/web/index.html', '<main></main>\n')],
    [
      'a new workspace',
      () => {
        write('packages/novo/package.json', '{}');
        write('packages/novo/src/index.ts', 'x\n');
      },
    ],
  ])('asks for a build after %s', (_, change) => {
    change();
    expect(whyBuild(root)).toBe('the sources changed since the last build');
  });

  it('asks for a build when an output or the stamp is missing', () => {
    rmSync(join(root, 'apps/server/dist/build-stamp.json'));
    expect(whyBuild(root)).toBe('the build has no stamp');
    rmSync(join(root, 'apps/console/dist/index.html'));
    expect(whyBuild(root)).toBe('apps/console/dist/index.html is missing');
    rmSync(join(root, 'apps/web/dist/index.html'));
    expect(whyBuild(root)).toBe('apps/web/dist/index.html is missing');
    rmSync(join(root, 'apps/server/dist'), { recursive: true });
    expect(whyBuild(root)).toBe('apps/server/dist/main.js is missing');
  });
});
