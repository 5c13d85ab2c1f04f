// `npm run backup -- <file>` and `npm run restore -- <file>`: the built backup command
// (apps/server/src/backup.ts; docs/operations/backup.md), built first when the build is missing
// or stale, as `npm start` does. A production tree runs `node apps/server/dist/backup.js` itself.
import { buildIfStale } from './build-stamp.mjs';

buildIfStale();

await import('../apps/server/dist/backup.js');
