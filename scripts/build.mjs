// `npm run build`: the production build, once (decision 033).
// 1. The files the compiled code reads beside itself, copied from src/ to dist/: whatever in
//    src/ TypeScript does not emit (the password worker `argon2.worker.mjs`, the generated
//    `schema.d.ts` of @sino/client).
// 2. TypeScript: the server and every workspace package it runs, compiled to their dist/ in
//    dependency order (`tsc -b tsconfig.build.json`; a project already up to date is skipped).
// 3. A check that each compiled package lists in its `dependencies` every package its code
//    imports: after `npm prune --omit=dev` only those are left, and a test run cannot tell
//    (the workspace's node_modules holds every package, dev or not).
// 4. The web app and Sino's console, bundled by Vite into apps/web/dist and apps/console/dist.
// 5. The stamp of the sources built, read by `npm start` (scripts/start.mjs).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repositoryRoot as root, sourceStamp, writeStamp } from './build-stamp.mjs';

const tool = (specifier) => {
  try {
    return fileURLToPath(import.meta.resolve(specifier));
  } catch {
    return undefined;
  }
};
const tscBin = tool('typescript/bin/tsc');
if (!tscBin || !tool('vite')) {
  console.error(
    'The build needs the development dependencies (TypeScript, Vite), which are not ' +
      'installed (removed by `npm prune --omit=dev`?): run `npm ci`, then `npm run build`.',
  );
  process.exit(1);
}
const { default: ts } = await import('typescript');
const { build: viteBuild } = await import('vite');
const { init, parse } = await import('es-module-lexer');

const stamp = sourceStamp();

/** The projects `tsc -b` builds: the root's references, theirs, and so on. */
function builtProjects() {
  const seen = new Set();
  const visit = (configFile) => {
    if (seen.has(configFile)) return;
    seen.add(configFile);
    const { config, error } = ts.readConfigFile(configFile, ts.sys.readFile);
    if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
    for (const { path } of config.references ?? []) {
      visit(join(dirname(configFile), path.endsWith('.json') ? path : join(path, 'tsconfig.json')));
    }
  };
  const rootConfig = join(root, 'tsconfig.build.json');
  visit(rootConfig);
  seen.delete(rootConfig);
  return [...seen].map((configFile) => {
    const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
    const folder = dirname(configFile);
    return {
      folder,
      source: join(folder, config.compilerOptions.rootDir),
      output: join(folder, config.compilerOptions.outDir),
      pkg: JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')),
    };
  });
}
const projects = builtProjects();
const filesIn = (folder) =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

// TypeScript emits .ts files only; anything else in src/ that is not a test is read at run
// time (or, for a .d.ts, by the packages built on this one) from beside the code. Copied
// before compiling, so a package is compiled against complete declarations of the others.
const emitted = (file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts');
const isTest = (file) => /\.test\.[cm]?[jt]sx?$/.test(file);
for (const { source, output } of projects) {
  for (const from of filesIn(source)) {
    if (emitted(from) || isTest(from)) continue;
    const to = join(output, relative(source, from));
    // An unchanged copy keeps its time: tsc -b then finds the packages built on it up to date.
    if (existsSync(to) && readFileSync(to).equals(readFileSync(from))) continue;
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
}

const compiled = spawnSync(process.execPath, [tscBin, '-b', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

await init;
const undeclared = new Set();
for (const { output, pkg } of projects) {
  const declared = new Set([
    pkg.name,
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
  for (const file of filesIn(output)) {
    if (!/\.m?js$/.test(file)) continue;
    const [imports] = parse(readFileSync(file, 'utf8'), file);
    for (const { n: specifier } of imports) {
      if (!specifier || specifier.startsWith('.') || isBuiltin(specifier)) continue;
      const name = specifier.split('/', specifier.startsWith('@') ? 2 : 1).join('/');
      if (!declared.has(name)) undeclared.add(`${relative(root, file)} imports ${name}`);
    }
  }
}
if (undeclared.size > 0) {
  console.error(
    `Not in the importing package's dependencies (a production install would lack them):\n  ${[...undeclared].join('\n  ')}`,
  );
  process.exit(1);
}

const web = join(root, 'apps/web');
await viteBuild({ root: web, configFile: join(web, 'vite.config.ts'), logLevel: 'warn' });
const console_ = join(root, 'apps/console');
await viteBuild({ root: console_, configFile: join(console_, 'vite.config.ts'), logLevel: 'warn' });

writeStamp(stamp);
console.log('Built: apps/server/dist (and its packages), apps/web/dist, apps/console/dist.');
