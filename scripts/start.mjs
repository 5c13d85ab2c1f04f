// `npm start`: the built server, built first when the build is missing or does not match the
// sources (its stamp, scripts/build-stamp.mjs). A production deployment runs
// `node apps/server/dist/main.js` itself, after `npm run build` (docs/operations/deploy.md).
import { buildIfStale } from './build-stamp.mjs';

buildIfStale();

// In this process rather than a child: one process to signal and to measure.
await import('../apps/server/dist/main.js');
