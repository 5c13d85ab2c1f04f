// The stamp of a build: one hash of every file the build reads (each workspace's sources,
// package.json and build settings; the root's settings and lock file). `npm run build` writes
// it beside the server it built; `npm start` compares it with the sources' hash now and builds
// again only when they differ (decision 033). Contents, not modification times: a checkout
// or a copy that touches times without changing a byte is no reason to build, and a file
// added, removed or renamed changes the hash. Tests are left out: editing one is no reason to
// build either.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository this script belongs to. */
export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

/** Where the build keeps its stamp: beside the server it built. */
export const stampFile = (root = repositoryRoot) => join(root, 'apps/server/dist/build-stamp.json');

/** What `npm start` runs and serves: without all of them, there is nothing to start. */
export const builtFiles = (root = repositoryRoot) => [
  join(root, 'apps/server/dist/main.js'),
  join(root, 'apps/web/dist/index.html'),
  join(root, 'apps/console/dist/index.html'),
];

const rootInputs = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'tsconfig.build.base.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
  'scripts/build-stamp.mjs',
];
// Per workspace: its settings, and the folders compiled or bundled from.
const workspaceFiles = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'vite.config.ts',
  'index.html',
];
const workspaceFolders = ['src', 'public'];
const isTest = (name) => /\.test\.[cm]?[jt]sx?$/.test(name);

/** @param {string} folder @returns {Generator<string>} */
function* filesUnder(folder) {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile() && !isTest(entry.name)) yield path;
  }
}

/** The workspaces' folders, from the root's `workspaces` ("packages/*", "apps/*"). */
function workspaces(root) {
  /** @type {{ workspaces: string[] }} */
  const { workspaces: globs } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return globs.flatMap((glob) => {
    if (!glob.endsWith('/*')) return [join(root, glob)];
    const parent = join(root, glob.slice(0, -2));
    if (!existsSync(parent)) return [];
    return readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name))
      .filter((dir) => existsSync(join(dir, 'package.json')));
  });
}

/** Every input of the build, relative to the root with forward slashes, in a stable order. */
export function buildInputs(root = repositoryRoot) {
  const files = rootInputs.map((file) => join(root, file)).filter((file) => existsSync(file));
  for (const dir of workspaces(root)) {
    for (const file of workspaceFiles) if (existsSync(join(dir, file))) files.push(join(dir, file));
    for (const folder of workspaceFolders) files.push(...filesUnder(join(dir, folder)));
  }
  return files.map((file) => relative(root, file).split(sep).join('/')).sort();
}

/** The hash of the build's inputs as they are now: each file's path and contents. */
export function sourceStamp(root = repositoryRoot) {
  const hash = createHash('sha256');
  for (const file of buildInputs(root)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Records that the build made from the sources whose stamp is given is complete. */
export function writeStamp(stamp, root = repositoryRoot) {
  mkdirSync(dirname(stampFile(root)), { recursive: true });
  writeFileSync(stampFile(root), `${JSON.stringify({ sources: stamp }, null, 2)}\n`);
}

/** Why the build must run before a start, or undefined when it matches the sources. */
export function whyBuild(root = repositoryRoot) {
  const missing = builtFiles(root).find((file) => !existsSync(file));
  if (missing) return `${relative(root, missing).split(sep).join('/')} is missing`;
  let built;
  try {
    built = JSON.parse(readFileSync(stampFile(root), 'utf8')).sources;
  } catch {
    return 'the build has no stamp';
  }
  if (built !== sourceStamp(root)) return 'the sources changed since the last build';
  return undefined;
}

/**
 * Builds first when the build is missing or does not match the sources, saying why (what
 * `npm start` and `npm run backup` do before running the built code); a failed build ends
 * this process with the build's status.
 */
export function buildIfStale(root = repositoryRoot) {
  const reason = whyBuild(root);
  if (!reason) return;
  console.error(`Building first: ${reason}.`);
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
