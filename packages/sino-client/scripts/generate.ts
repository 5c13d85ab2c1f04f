/**
 * Regenerates Sino's server API client: `openapi.json` (the document, reduced to the server
 * API) and `src/schema.d.ts` (its types). Run from the repository root with
 * `npm run sino:client` after changing a Sino route; commit both files.
 */
import { relative } from 'node:path';
import { writeGeneratedFiles } from './generator.js';

const started = performance.now();
const written = await writeGeneratedFiles();
for (const path of written) console.log(`wrote ${relative(process.cwd(), path)}`);
console.log(`done in ${Math.round(performance.now() - started)} ms`);
