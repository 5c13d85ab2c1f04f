// `npm start`: the built server, built first when the build is missing or does not match the
// sources (its stamp, scripts/build-stamp.mjs). A production deployment runs
// `node apps/server/dist/main.js` itself, after `npm run build` (docs/operations/deploy.md).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { repositoryRoot, whyBuild } from './build-stamp.mjs';

const reason = whyBuild();
if (reason) {
  console.error(`Building first: ${reason}.`);
  const built = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('./build.mjs', import.meta.url))],
    {
      cwd: repositoryRoot,
      stdio: 'inherit',
    },
  );
  if (built.status !== 0) process.exit(built.status ?? 1);
}

// In this process rather than a child: one process to signal and to measure.
await import('../apps/server/dist/main.js');
