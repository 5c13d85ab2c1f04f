// Part of `npm run lint`: every package in the lock file runs on every Node version the
// project's `engines` allows (decision 033). `npm ci` only warns (EBADENGINE), and only about
// the Node it runs on; this looks at the whole range, so a dependency that drops Node 20 fails
// the lint on any machine, before a deployment on Node 20 finds it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import semver from 'semver';
import { repositoryRoot } from './build-stamp.mjs';

/**
 * The locked packages whose `engines.node` leaves out part of `range`, as readable lines.
 * @param {string} range the project's `engines.node`
 * @param {Record<string, { version?: string, engines?: unknown }>} lockedPackages the lock
 *   file's `packages`
 */
export function enginesProblems(range, lockedPackages) {
  if (!semver.validRange(range)) return [`the project's engines.node "${range}" is not a range`];
  const problems = [];
  for (const [path, locked] of Object.entries(lockedPackages)) {
    // Old packages wrote engines as a list of strings, which npm ignores.
    const wanted =
      locked.engines && !Array.isArray(locked.engines) ? locked.engines.node : undefined;
    if (path === '' || wanted === undefined) continue;
    const name = `${path.replace(/^.*node_modules\//, '')}@${locked.version}`;
    if (!semver.validRange(wanted)) problems.push(`${name} wants node "${wanted}", not a range`);
    else if (!semver.subset(range, wanted)) problems.push(`${name} wants node ${wanted}`);
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const read = (file) => JSON.parse(readFileSync(join(repositoryRoot, file), 'utf8'));
  const range = read('package.json').engines?.node;
  const problems = enginesProblems(range ?? '', read('package-lock.json').packages);
  if (problems.length > 0) {
    console.error(
      `package.json allows node ${range}, but locked packages do not run on all of it:\n  ` +
        `${problems.join('\n  ')}\n` +
        'Lock versions that do (an "overrides" entry, or an older parent), or narrow engines.',
    );
    process.exit(1);
  }
}
