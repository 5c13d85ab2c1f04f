/**
 * Size of the JavaScript the login page needs before it can render (index.html's entry script
 * and the chunks it preloads), gzip-compressed as a server would send it, plus every lazily
 * loaded chunk for comparison. Target: initial JavaScript of the login page under 200 KB gzip.
 *
 *   npm run bench:web-bundle
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const LIMITE_KB = 200;
const raizDoWeb = fileURLToPath(new URL('../apps/web', import.meta.url));
const saida = mkdtempSync(join(tmpdir(), 'bench-web-'));

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const gzip = (arquivo: string) => gzipSync(readFileSync(arquivo), { level: 9 }).length;

try {
  await build({
    root: raizDoWeb,
    configFile: join(raizDoWeb, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: saida, emptyOutDir: true },
  });
  const html = readFileSync(join(saida, 'index.html'), 'utf8');
  const iniciais = [
    ...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  const todos = readdirSync(join(saida, 'assets')).filter((f) => f.endsWith('.js'));
  const linhas = todos
    .map((f) => {
      const caminho = join(saida, 'assets', f);
      return {
        arquivo: f,
        inicial: iniciais.includes(`assets/${f}`),
        bruto: readFileSync(caminho).length,
        gzip: gzip(caminho),
      };
    })
    .sort((a, b) => Number(b.inicial) - Number(a.inicial) || b.gzip - a.gzip);
  const inicial = linhas.filter((l) => l.inicial).reduce((s, l) => s + l.gzip, 0);

  console.log('| chunk | loaded | raw KB | gzip KB |');
  console.log('|---|---|---|---|');
  for (const l of linhas)
    console.log(
      `| ${l.arquivo.replace(/-[\w-]{8}\.js$/, '.js')} | ${l.inicial ? 'initial' : 'lazy'} | ${kb(l.bruto)} | ${kb(l.gzip)} |`,
    );
  console.log(
    `\nInitial JavaScript of the login page: ${kb(inicial)} KB gzip (limit ${LIMITE_KB} KB) over ${iniciais.length} file(s).`,
  );
  if (kb(inicial) > LIMITE_KB) process.exitCode = 1;
} finally {
  rmSync(saida, { recursive: true, force: true });
}
