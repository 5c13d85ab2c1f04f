/**
 * Size of the JavaScript Sino's console sends, gzip-compressed as a server would: the sign-in
 * page (index.html's entry script and the chunks it preloads: what loads before it renders)
 * and each section's own chunk (apps/console/src/app/sections.ts), loaded when the section
 * is first opened. Target: the sign-in page under 150 KB gzip (issue 20).
 *
 *   npm run bench:console-bundle
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';

const LIMIT_KB = 150;
const consoleRoot = fileURLToPath(new URL('../apps/console', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'bench-console-'));

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const gzip = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

try {
  const result = (await build({
    root: consoleRoot,
    configFile: join(consoleRoot, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: out, emptyOutDir: true },
  })) as Rollup.RollupOutput;
  const html = readFileSync(join(out, 'index.html'), 'utf8');
  const initial = [
    ...html.matchAll(/<script[^>]+src="\/console\/([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/console\/([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  // Which page each lazy chunk was made for: a section's, or a signed-out page's.
  const sourceOf = new Map(
    result.output
      .filter((o): o is Rollup.OutputChunk => o.type === 'chunk' && o.isDynamicEntry)
      .map((chunk) => [chunk.fileName, chunk.facadeModuleId ?? '']),
  );
  const rows = readdirSync(join(out, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => {
      const file = `assets/${f}`;
      const source = sourceOf.get(file);
      return {
        chunk: f.replace(/-[\w-]{8}\.js$/, '.js'),
        // A section's chunk is named by its page (features/<section>/pages/...).
        loaded: initial.includes(file)
          ? 'sign-in page'
          : source
            ? `on demand: ${source.replace(/^.*\/src\//, '')}`
            : 'shared, on demand',
        raw: readFileSync(join(out, file)).length,
        gzip: gzip(join(out, file)),
      };
    })
    .sort((a, b) => a.loaded.localeCompare(b.loaded) || b.gzip - a.gzip);
  const signIn = rows.filter((r) => r.loaded === 'sign-in page').reduce((s, r) => s + r.gzip, 0);

  console.log('| chunk | loaded | raw KB | gzip KB |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.chunk} | ${r.loaded} | ${kb(r.raw)} | ${kb(r.gzip)} |`);
  console.log(
    `\nJavaScript of the sign-in page: ${kb(signIn)} KB gzip (limit ${LIMIT_KB} KB) over ${initial.length} file(s).`,
  );
  if (kb(signIn) > LIMIT_KB) process.exitCode = 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
