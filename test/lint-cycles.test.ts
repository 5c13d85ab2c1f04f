import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run lint:cycles` as package.json has it, run on two throw-away modules: an import of
// types only is a dependency like any other (docs/decisions/032).
const root = fileURLToPath(new URL('..', import.meta.url));
const script: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts[
  'lint:cycles'
];
// The script's options, without the program's name and its quoted globs.
const options = script
  .replace(/'[^']*'/g, '')
  .trim()
  .split(/\s+/)
  .slice(1);

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

function checkCycles(files: Record<string, string>) {
  folder = mkdtempSync(join(tmpdir(), 'lint-cycles-'));
  // Imports resolve as in the repository (`./b.js` is `b.ts`): dpdm reads the folder's tsconfig.
  const tsconfig = { extends: join(root, 'tsconfig.base.json') };
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(tsconfig));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return spawnSync(join(root, 'node_modules/.bin/dpdm'), [...options, '*.ts'], {
    cwd: folder,
    encoding: 'utf8',
  });
}

describe('lint:cycles', () => {
  it('fails on a cycle of type-only imports', () => {
    const run = checkCycles({
      'a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
      'b.ts': "import { type A } from './a.js';\nexport interface B { a?: A }\n",
    });
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/b\.ts -> a\.ts|a\.ts -> b\.ts/);
  });

  it('fails on a re-export of a type that closes a cycle', () => {
    const run = checkCycles({
      'a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
      'b.ts': "export type { A } from './a.js';\nexport interface B { n?: number }\n",
    });
    expect(run.status, run.stdout + run.stderr).toBe(1);
  });

  it('passes one-way type imports', () => {
    const run = checkCycles({
      'a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
      'b.ts': 'export interface B { n?: number }\n',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });
});
