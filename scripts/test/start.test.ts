import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const scripts = fileURLToPath(new URL('..', import.meta.url));

// `npm start` (scripts/start.mjs) in a repository in miniature, where the build is a stand-in
// that writes what a build leaves and says so, and the server says it started.
let root: string;
const write = (file: string, text: string) => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};
const start = () => {
  const run = spawnSync(process.execPath, [join(root, 'scripts/start.mjs')], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'start-'));
  mkdirSync(join(root, 'scripts'));
  for (const file of ['start.mjs', 'build-stamp.mjs'])
    copyFileSync(join(scripts, file), join(root, 'scripts', file));
  write('package.json', JSON.stringify({ workspaces: ['packages/*'] }));
  write('packages/db/package.json', '{}');
  write('packages/db/src/index.ts', 'export const a = 1;\n');
  write(
    'scripts/build.mjs',
    `import { writeFileSync, mkdirSync } from 'node:fs';
import { sourceStamp, writeStamp } from './build-stamp.mjs';
mkdirSync('apps/server/dist', { recursive: true });
mkdirSync('apps/web/dist', { recursive: true });
mkdirSync('apps/console/dist', { recursive: true });
writeFileSync('apps/server/dist/main.js', "console.log('server started');\\n");
writeFileSync('apps/web/dist/index.html', '');
writeFileSync('apps/console/dist/index.html', '');
writeStamp(sourceStamp());
console.log('built');
`,
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('npm start', () => {
  it('builds when there is no build, then runs the built server', () => {
    const first = start();
    expect(first).toMatchObject({ code: 0, out: 'built\nserver started\n' });
    expect(first.err).toContain('Building first: apps/server/dist/main.js is missing.');
  });

  it('runs the build it finds up to date without building again', () => {
    start();
    expect(start()).toEqual({ code: 0, out: 'server started\n', err: '' });
  });

  it('builds again once a source changed', () => {
    start();
    write('packages/db/src/index.ts', 'export const a = 2;\n');
    const again = start();
    expect(again).toMatchObject({ code: 0, out: 'built\nserver started\n' });
    expect(again.err).toContain('Building first: the sources changed since the last build.');
  });

  it('stops with the build when the build fails, and runs nothing', () => {
    write('scripts/build.mjs', "console.log('building'); process.exit(3);\n");
    expect(start()).toMatchObject({ code: 3, out: 'building\n' });
  });

  it('says what to do when the build is stale and the build tools were pruned', () => {
    // The real build script, in a tree without node_modules: as after `npm prune --omit=dev`.
    copyFileSync(join(scripts, 'build.mjs'), join(root, 'scripts/build.mjs'));
    const run = start();
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    expect(run.err).toContain(
      'The build needs the development dependencies (TypeScript, Vite), which are not installed',
    );
  });
});
