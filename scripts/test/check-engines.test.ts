import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { enginesProblems } from '../check-engines.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const project = '^20.19.0 || ^22.13.0 || >=24';

describe('the engines check', () => {
  it('refuses a locked package that wants a newer Node than the project allows', () => {
    // What the lock held before issue 18: cookie 2 and content-disposition 3 want Node 22.
    expect(
      enginesProblems(project, {
        '': { engines: { node: project } },
        'node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } },
        'node_modules/a/node_modules/content-disposition': {
          version: '3.0.0',
          engines: { node: '>=22' },
        },
      }),
    ).toEqual(['cookie@2.0.2 wants node >=22', 'content-disposition@3.0.0 wants node >=22']);
  });

  it('refuses a package that leaves out part of the range, not only the Node it runs on', () => {
    expect(
      enginesProblems(project, {
        'node_modules/x': { version: '1.0.0', engines: { node: '^20.20.0 || >=22' } },
        'node_modules/y': { version: '1.0.0', engines: { node: '^20.19.0 || ^22.12.0' } },
      }),
    ).toEqual(['x@1.0.0 wants node ^20.20.0 || >=22', 'y@1.0.0 wants node ^20.19.0 || ^22.12.0']);
  });

  it('accepts packages whose range covers the project, and those that name no engine', () => {
    expect(
      enginesProblems(project, {
        'node_modules/eslint': { version: '10.0.0', engines: { node: project } },
        'node_modules/vite': { version: '8.0.0', engines: { node: '^20.19.0 || >=22.12.0' } },
        'node_modules/old': { version: '1.0.0', engines: ['node >= 0.4'] },
        'node_modules/npmonly': { version: '1.0.0', engines: { npm: '>=7' } },
        'node_modules/none': { version: '1.0.0' },
      }),
    ).toEqual([]);
  });

  it('says when a range cannot be read', () => {
    expect(enginesProblems('twenty', {})).toEqual([
      `the project's engines.node "twenty" is not a range`,
    ]);
    expect(
      enginesProblems(project, {
        'node_modules/z': { version: '1.0.0', engines: { node: 'twenty' } },
      }),
    ).toEqual(['z@1.0.0 wants node "twenty", not a range']);
  });

  it('finds the lock file of this repository in agreement with its engines', () => {
    const range = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).engines.node;
    const locked = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')).packages;
    expect(enginesProblems(range, locked)).toEqual([]);
    const run = spawnSync(process.execPath, ['scripts/check-engines.mjs'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run).toMatchObject({ status: 0, stderr: '' });
  });
});
