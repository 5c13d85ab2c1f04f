/**
 * What an inbox adds to a React app's initial download: three minimal Vite apps built in the
 * same run on React 18.3.1 — bare React, the same with Novu's popover inbox
 * (@novu/notification-center 0.24.2) and the same with ours (@sino/react from its built dist,
 * as a host installs it). Target: ours adds at most 25 % of what Novu's adds (aim: under 20 %).
 * Our popover's panel is a lazy chunk (fetched once the bell is drawn; Floating UI, which places
 * the popover and menus, is in it): it is reported apart, with the total a host downloads once
 * the panel and one language pack are in; the pass/fail is on the initial load, which Novu
 * loads all of.
 *
 *   npm run bench:inbox-bundle
 *   BENCH_KEEP_OUTPUT=1 npm run bench:inbox-bundle   # keep the built apps, to read them
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, version as versaoDoVite, type Alias, type Manifest, type Plugin } from 'vite';

const LIMITE = 0.25;
const META = 0.2;

const raiz = fileURLToPath(new URL('..', import.meta.url));
const deps = join(raiz, 'bench/bundle-inbox/deps');
const modulosDasDeps = join(deps, 'node_modules');

type Tamanho = { bruto: number; gzip: number; brotli: number };
type Arquivo = Tamanho & { arquivo: string; origem?: string };
type Medida = {
  app: string;
  iniciais: Arquivo[];
  inicial: Tamanho & { jsGzip: number; cssGzip: number };
  tardios: Arquivo[];
  ptBR?: { chunk: Arquivo; totalComInicial: Tamanho };
  /** Sino's popover panel: its lazy chunk and what it imports that the initial load lacks. */
  painel?: { arquivos: Arquivo[]; soma: Tamanho };
  /** Initial load, the panel and the pt-BR pack (each file once): all a pt-BR host fetches. */
  comPainelEPtBR?: Tamanho;
};

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;
const soma = (xs: Tamanho[]): Tamanho => ({
  bruto: xs.reduce((s, x) => s + x.bruto, 0),
  gzip: xs.reduce((s, x) => s + x.gzip, 0),
  brotli: xs.reduce((s, x) => s + x.brotli, 0),
});
const menos = (a: Tamanho, b: Tamanho): Tamanho => ({
  bruto: a.bruto - b.bruto,
  gzip: a.gzip - b.gzip,
  brotli: a.brotli - b.brotli,
});
// Each file compressed on its own, as a server sends it.
function tamanho(conteudo: Buffer): Tamanho {
  return {
    bruto: conteudo.length,
    gzip: gzipSync(conteudo, { level: 9 }).length,
    brotli: brotliCompressSync(conteudo, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: conteudo.length,
      },
    }).length,
  };
}

function executar(comando: string, args: string[]) {
  const r = spawnSync(comando, args, { cwd: raiz, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${comando} ${args.join(' ')} failed (${r.status})`);
}

const inicio = `import { createRoot } from 'react-dom/client';\n`;
const render = (jsx: string) =>
  `createRoot(document.getElementById('root')).render(\n  <>\n    <button>Hello</button>\n${jsx}  </>,\n);\n`;
const apps = {
  bare: inicio + render(''),
  novu:
    inicio +
    `import { NotificationBell, NovuProvider, PopoverNotificationCenter } from '@novu/notification-center';\n` +
    render(
      `    <NovuProvider subscriberId="bench-subscriber" applicationIdentifier="bench-app" backendUrl="https://api.example.com" socketUrl="https://ws.example.com">\n` +
        `      <PopoverNotificationCenter colorScheme="light">\n` +
        `        {({ unseenCount }) => <NotificationBell unseenCount={unseenCount} />}\n` +
        `      </PopoverNotificationCenter>\n` +
        `    </NovuProvider>\n`,
    ),
  sino:
    inicio +
    `import { PopoverNotificationCenter, SinoProvider } from '@sino/react';\n` +
    `import '@sino/react/styles.css';\n` +
    render(
      `    <SinoProvider subscriberId="bench-subscriber" applicationIdentifier="bench-app" backendUrl="https://api.example.com" socketUrl="https://ws.example.com">\n` +
        `      <PopoverNotificationCenter />\n` +
        `    </SinoProvider>\n`,
    ),
} as const;
type NomeDoApp = keyof typeof apps;

// Resolved by Node with its default conditions (no "source"), so through the published
// `exports` to dist/: what a host installing @sino/react would bundle.
const distDoSino = (especificador: string) => {
  const caminho = fileURLToPath(import.meta.resolve(especificador));
  if (!caminho.includes(`${sep}dist${sep}`)) throw new Error(`${especificador} -> ${caminho}`);
  return caminho;
};
const aliases: Record<NomeDoApp, Alias[]> = {
  bare: [],
  novu: [],
  sino: [
    { find: /^@sino\/react\/styles\.css$/, replacement: distDoSino('@sino/react/styles.css') },
    { find: /^@sino\/react$/, replacement: distDoSino('@sino/react') },
  ],
};

// Every module id the bundle took, to check which React and which @sino files went in.
function registrarModulos(ids: Set<string>): Plugin {
  return {
    name: 'bench-modulos',
    generateBundle(_, bundle) {
      for (const saida of Object.values(bundle))
        if (saida.type === 'chunk') for (const id of saida.moduleIds) ids.add(id);
    },
  };
}

function conferirModulos(app: NomeDoApp, ids: Set<string>) {
  const reacts = [...ids].filter((id) => /[\\/]node_modules[\\/]react(-dom)?[\\/]/.test(id));
  const alheios = reacts.filter((id) => !id.startsWith(modulosDasDeps + sep));
  if (!reacts.some((id) => id.includes(`${sep}react-dom${sep}`)) || alheios.length > 0)
    throw new Error(`${app}: React not (only) from ${modulosDasDeps}: ${alheios.join(', ')}`);
  const fontes = [...ids].filter((id) => /packages[\\/]sino-[^\\/]+[\\/]src[\\/]/.test(id));
  if (fontes.length > 0) throw new Error(`${app}: sources bundled instead of dist: ${fontes[0]}`);
}

async function construir(app: NomeDoApp, pasta: string, alias: Alias[] = aliases[app]) {
  mkdirSync(pasta, { recursive: true });
  // The app's node_modules is the deps' own, as if it had installed React 18 and Novu.
  symlinkSync(modulosDasDeps, join(pasta, 'node_modules'), 'dir');
  writeFileSync(
    join(pasta, 'index.html'),
    '<!doctype html>\n<html><body><div id="root"></div><script type="module" src="/main.jsx"></script></body></html>\n',
  );
  writeFileSync(join(pasta, 'main.jsx'), apps[app]);
  const ids = new Set<string>();
  await build({
    root: pasta,
    configFile: false,
    envDir: false,
    publicDir: false,
    cacheDir: join(pasta, '.vite-cache'),
    mode: 'production',
    logLevel: 'warn',
    plugins: [react(), registrarModulos(ids)],
    // One React for all: @sino/react's dist lives in the workspace next to React 19, so
    // imports of react and react-dom are resolved from the app's root (the deps' 18.3.1).
    resolve: { alias, dedupe: ['react', 'react-dom'] },
    build: {
      outDir: join(pasta, 'dist'),
      emptyOutDir: true,
      manifest: true,
      // Maps for the breakdown below; 'hidden' leaves the bundles without a sourceMappingURL.
      sourcemap: 'hidden',
      reportCompressedSize: false,
      // Novu's app is one chunk of about 700 KB: the warning would only be noise here.
      chunkSizeWarningLimit: 1024,
    },
  });
  conferirModulos(app, ids);
  return join(pasta, 'dist');
}

function medir(app: NomeDoApp, saida: string): Medida {
  const manifest = JSON.parse(readFileSync(join(saida, '.vite/manifest.json'), 'utf8')) as Manifest;
  const chaveDaEntrada = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!chaveDaEntrada) throw new Error(`${app}: no entry in the manifest`);
  // A chunk, its CSS and its static imports, transitively: what loads with it.
  const comImportacoes = (
    chave: string,
    arquivos = new Set<string>(),
    vistos = new Set<string>(),
  ) => {
    if (vistos.has(chave)) return arquivos;
    vistos.add(chave);
    const c = manifest[chave]!;
    arquivos.add(c.file);
    for (const css of c.css ?? []) arquivos.add(css);
    for (const i of c.imports ?? []) comImportacoes(i, arquivos, vistos);
    return arquivos;
  };
  const origemDe = new Map(Object.values(manifest).map((c) => [c.file, c.src]));
  const arquivo = (f: string): Arquivo => ({
    arquivo: f,
    origem: origemDe.get(f),
    ...tamanho(readFileSync(join(saida, f))),
  });
  const iniciais = [...comImportacoes(chaveDaEntrada)].map(arquivo);
  const nomesIniciais = new Set(iniciais.map((a) => a.arquivo));
  const tardios = readdirSync(join(saida, 'assets'))
    .map((f) => `assets/${f}`)
    .filter((f) => /\.(js|css)$/.test(f) && !nomesIniciais.has(f))
    .map(arquivo)
    .sort((a, b) => b.gzip - a.gzip);
  const total = soma(iniciais);
  const medida: Medida = {
    app,
    iniciais,
    inicial: {
      ...total,
      jsGzip: soma(iniciais.filter((a) => a.arquivo.endsWith('.js'))).gzip,
      cssGzip: soma(iniciais.filter((a) => a.arquivo.endsWith('.css'))).gzip,
    },
    tardios,
  };
  const chavePtBR = Object.keys(manifest).find((k) =>
    /i18n[\\/]languages[\\/]pt-BR\.js$/.test(manifest[k]!.src ?? ''),
  );
  // A lazy chunk plus whatever it imports that the initial load did not bring.
  const extrasDe = (chave: string) =>
    [...comImportacoes(chave)].filter((f) => !nomesIniciais.has(f));
  if (chavePtBR) {
    medida.ptBR = {
      chunk: arquivo(manifest[chavePtBR]!.file),
      totalComInicial: soma([total, ...extrasDe(chavePtBR).map(arquivo)]),
    };
  }
  // The popover's panel, imported dynamically by popover.js: a chunk of its own when the
  // bundler split it (only if nothing in the initial load imports it statically).
  const chavePainel = Object.keys(manifest).find(
    (k) =>
      manifest[k]!.isDynamicEntry &&
      /components[\\/]notification-center\.js$/.test(manifest[k]!.src ?? ''),
  );
  if (chavePainel) {
    const arquivos = extrasDe(chavePainel).map(arquivo);
    medida.painel = { arquivos, soma: soma(arquivos) };
    const nomes = new Set([...extrasDe(chavePainel), ...(chavePtBR ? extrasDe(chavePtBR) : [])]);
    medida.comPainelEPtBR = soma([total, ...[...nomes].map(arquivo)]);
  }
  return medida;
}

// Source map "mappings" decoded just enough to know which source each generated span is from.
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function decodificar(mappings: string) {
  const linhas: { coluna: number; fonte?: number }[][] = [];
  let fonte = 0;
  for (const linha of mappings.split(';')) {
    const segmentos: { coluna: number; fonte?: number }[] = [];
    let coluna = 0;
    for (const segmento of linha.split(',')) {
      if (!segmento) continue;
      const campos: number[] = [];
      let valor = 0;
      let deslocamento = 0;
      for (const ch of segmento) {
        const d = BASE64.indexOf(ch);
        valor += (d & 31) * 2 ** deslocamento;
        if (d & 32) deslocamento += 5;
        else {
          campos.push(valor % 2 ? -Math.floor(valor / 2) : valor / 2);
          valor = 0;
          deslocamento = 0;
        }
      }
      coluna += campos[0]!;
      if (campos.length > 1) fonte += campos[1]!;
      segmentos.push(campos.length > 1 ? { coluna, fonte } : { coluna });
    }
    linhas.push(segmentos);
  }
  return linhas;
}

function pacoteDe(fonte: string, pasta: string) {
  const nm = fonte.lastIndexOf(`node_modules${sep}`);
  if (nm >= 0) {
    const partes = fonte.slice(nm + 13).split(sep);
    return partes[0]!.startsWith('@') ? `${partes[0]}/${partes[1]}` : partes[0]!;
  }
  const m = /packages[\\/](sino-[^\\/]+)[\\/]/.exec(fonte);
  if (m) return `@sino/${m[1]!.slice(5)}`;
  if (fonte.startsWith(pasta)) return '(the app)';
  return relative(raiz, fonte);
}

/** Minified bytes of these JavaScript files per package and per file, from the source maps. */
function decompor(arquivosMedidos: { arquivo: string }[], saida: string) {
  const pasta = dirname(saida);
  const porFonte = new Map<string, string[]>();
  for (const { arquivo } of arquivosMedidos.filter((a) => a.arquivo.endsWith('.js'))) {
    const codigo = readFileSync(join(saida, arquivo), 'utf8').split('\n');
    const mapa = JSON.parse(readFileSync(join(saida, `${arquivo}.map`), 'utf8')) as {
      sources: string[];
      sourceRoot?: string;
      mappings: string;
    };
    const fontes = mapa.sources.map((s) =>
      resolve(dirname(join(saida, arquivo)), mapa.sourceRoot ?? '', s),
    );
    decodificar(mapa.mappings).forEach((segmentos, l) => {
      const linha = codigo[l] ?? '';
      const adicionar = (fonte: string, de: number, ate: number) => {
        if (ate > de) porFonte.set(fonte, [...(porFonte.get(fonte) ?? []), linha.slice(de, ate)]);
      };
      adicionar('(unmapped)', 0, segmentos[0]?.coluna ?? linha.length);
      segmentos.forEach((s, i) =>
        adicionar(
          s.fonte === undefined ? '(unmapped)' : fontes[s.fonte]!,
          s.coluna,
          segmentos[i + 1]?.coluna ?? linha.length,
        ),
      );
    });
  }
  const agrupar = (chave: (fonte: string) => string) => {
    const grupos = new Map<string, string[]>();
    for (const [fonte, pedacos] of porFonte)
      grupos.set(chave(fonte), [...(grupos.get(chave(fonte)) ?? []), ...pedacos]);
    return [...grupos]
      .map(([nome, pedacos]) => {
        const texto = Buffer.from(pedacos.join(''));
        return { nome, bruto: texto.length, gzipSozinho: gzipSync(texto, { level: 9 }).length };
      })
      .sort((a, b) => b.bruto - a.bruto);
  };
  const pacotes = agrupar((f) => (f === '(unmapped)' ? f : pacoteDe(f, pasta)));
  const arquivos = agrupar((f) => (f.startsWith(raiz) ? relative(raiz, f) : f)).filter((a) =>
    a.nome.startsWith('packages/'),
  );
  return { pacotes, arquivos };
}

function imprimirDecomposicao(
  titulo: string,
  d: ReturnType<typeof decompor>,
  limite: number,
  oQue = 'initial JavaScript',
) {
  const total = d.pacotes.reduce((s, p) => s + p.bruto, 0);
  console.log(`\n${titulo}: ${oQue} by package (minified KB; gzip of each alone)`);
  console.log('| package | raw KB | share | gzip alone KB |');
  console.log('|---|---|---|---|');
  for (const p of d.pacotes.slice(0, limite))
    console.log(`| ${p.nome} | ${kb(p.bruto)} | ${pct(p.bruto / total)} | ${kb(p.gzipSozinho)} |`);
  if (d.arquivos.length === 0) return;
  console.log(`\n${titulo}: largest workspace files in the ${oQue}`);
  console.log('| file | raw KB | gzip alone KB |');
  console.log('|---|---|---|');
  for (const a of d.arquivos.slice(0, limite))
    console.log(`| ${a.nome} | ${kb(a.bruto)} | ${kb(a.gzipSozinho)} |`);
}

const linha = (rotulo: string, t: Tamanho) =>
  `| ${rotulo} | ${kb(t.bruto)} | ${kb(t.gzip)} | ${kb(t.brotli)} |`;

if (!existsSync(modulosDasDeps))
  executar('npm', ['ci', '--prefix', 'bench/bundle-inbox/deps', '--no-audit', '--no-fund']);
const versao = (pacote: string) =>
  (
    JSON.parse(readFileSync(join(modulosDasDeps, pacote, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
if (versao('react') !== '18.3.1' || versao('@novu/notification-center') !== '0.24.2')
  throw new Error('bench/bundle-inbox/deps is not the pinned one: npm ci --prefix it again');
// The published dist, not our sources; @sino/react's build runs @sino/js's first.
executar('npm', ['run', 'build', '-w', '@sino/react']);

// The figures follow the packages' sources: record which state of them was measured.
const git = (...args: string[]) =>
  spawnSync('git', args, { cwd: raiz, encoding: 'utf8' }).stdout.trim();
const fontesMedidas = {
  commit: git('rev-parse', '--short', 'HEAD'),
  alteradasSemCommit: git('status', '--porcelain', '--', 'packages/sino-react', 'packages/sino-js')
    .split('\n')
    .filter(Boolean).length,
};

const temporaria = mkdtempSync(join(tmpdir(), 'bench-inbox-'));
try {
  const medidas = {} as Record<NomeDoApp, Medida>;
  const saidas = {} as Record<NomeDoApp, string>;
  for (const app of Object.keys(apps) as NomeDoApp[]) {
    saidas[app] = await construir(app, join(temporaria, app));
    medidas[app] = medir(app, saidas[app]);
  }
  const { bare, novu, sino } = medidas;
  const novuAdiciona = menos(novu.inicial, bare.inicial);
  const sinoAdiciona = menos(sino.inicial, bare.inicial);
  const razao = sinoAdiciona.gzip / novuAdiciona.gzip;
  // The panel must be a chunk of its own: otherwise it is in the initial load, and says so.
  if (!sino.painel || !sino.comPainelEPtBR)
    throw new Error(
      'sino: the popover panel (components/notification-center.js) is not a lazy chunk',
    );
  const sinoTotalAdiciona = menos(sino.comPainelEPtBR, bare.inicial);
  const razaoTotal = sinoTotalAdiciona.gzip / novuAdiciona.gzip;

  console.log('\nInitial load (entry chunk, its static imports and their CSS), KB:');
  console.log('| app | files | raw | gzip | brotli | JS gzip | CSS gzip | lazy chunks |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const m of [bare, novu, sino])
    console.log(
      `| ${m.app} | ${m.iniciais.length} | ${kb(m.inicial.bruto)} | ${kb(m.inicial.gzip)} | ${kb(m.inicial.brotli)} | ${kb(m.inicial.jsGzip)} | ${kb(m.inicial.cssGzip)} | ${m.tardios.length} |`,
    );
  console.log('\nAdded over bare React 18.3.1, KB:');
  console.log('| | raw | gzip | brotli |');
  console.log('|---|---|---|---|');
  console.log(linha('Novu 0.24.2', novuAdiciona));
  console.log(linha('Sino (@sino/react dist)', sinoAdiciona));
  console.log(
    `| Sino / Novu | ${pct(sinoAdiciona.bruto / novuAdiciona.bruto)} | ${pct(razao)} | ${pct(sinoAdiciona.brotli / novuAdiciona.brotli)} |`,
  );

  for (const m of [novu, sino]) {
    const linguas = m.tardios.filter((t) => /i18n[\\/]languages[\\/]/.test(t.origem ?? ''));
    const outros = m.tardios.filter((t) => !linguas.includes(t));
    if (m.tardios.length === 0) continue;
    console.log(`\n${m.app}: lazy chunks, KB`);
    console.log('| chunk | raw | gzip | brotli |');
    console.log('|---|---|---|---|');
    for (const t of outros) console.log(linha(t.origem ?? t.arquivo, t));
    if (linguas.length > 0) {
      const gz = linguas.map((t) => t.gzip);
      console.log(
        `| ${linguas.length} language packs (gzip ${kb(Math.min(...gz))} to ${kb(Math.max(...gz))} each), together | ${kb(soma(linguas).bruto)} | ${kb(soma(linguas).gzip)} | ${kb(soma(linguas).brotli)} |`,
      );
    }
  }
  if (sino.ptBR) {
    console.log(
      `\npt-BR pack: ${kb(sino.ptBR.chunk.gzip)} KB gzip (${kb(sino.ptBR.chunk.bruto)} raw, ${kb(sino.ptBR.chunk.brotli)} brotli); ` +
        `with the initial load ${kb(sino.ptBR.totalComInicial.gzip)} KB gzip, ` +
        `${kb(sino.ptBR.totalComInicial.gzip - bare.inicial.gzip)} KB over bare React.`,
    );
  }
  console.log('\nSino popover panel (lazy: fetched once the bell is drawn), KB:');
  console.log('| file | raw | gzip | brotli |');
  console.log('|---|---|---|---|');
  for (const a of sino.painel.arquivos) console.log(linha(a.arquivo, a));
  console.log(linha('panel, together', sino.painel.soma));
  console.log(
    '\nSino in all once opened (initial load + panel + pt-BR pack), added over bare React, KB:',
  );
  console.log('| | raw | gzip | brotli |');
  console.log('|---|---|---|---|');
  console.log(linha('Sino, all of it', sinoTotalAdiciona));
  console.log(
    `| Sino all / Novu | ${pct(sinoTotalAdiciona.bruto / novuAdiciona.bruto)} | ${pct(razaoTotal)} | ${pct(sinoTotalAdiciona.brotli / novuAdiciona.brotli)} |`,
  );

  const decomposicoes = {
    sino: decompor(sino.iniciais, saidas.sino),
    sinoPainel: decompor(sino.painel.arquivos, saidas.sino),
    novu: decompor(novu.iniciais, saidas.novu),
  };
  imprimirDecomposicao('Sino', decomposicoes.sino, 15);
  // What the panel holds: where the "in all" share goes once the bell is opened.
  imprimirDecomposicao('Sino', decomposicoes.sinoPainel, 15, 'popover panel');
  imprimirDecomposicao('Novu', decomposicoes.novu, 10);

  const veredito =
    razao > LIMITE
      ? `NOT MET (limit ${pct(LIMITE)})`
      : razao > META
        ? `met (limit ${pct(LIMITE)}), above the ${pct(META)} aim`
        : `met, under the ${pct(META)} aim`;
  console.log(
    `\nSino adds ${kb(sinoAdiciona.gzip)} KB gzip to the initial load, Novu ${kb(novuAdiciona.gzip)} KB: ${pct(razao)} of Novu's, ${veredito}.`,
  );
  console.log(
    `With the lazy panel and the pt-BR pack, Sino adds ${kb(sinoTotalAdiciona.gzip)} KB gzip in all: ${pct(razaoTotal)} of Novu's, ${razaoTotal > LIMITE ? `NOT MET (limit ${pct(LIMITE)})` : razaoTotal > META ? `met (limit ${pct(LIMITE)}), above the ${pct(META)} aim` : `met, under the ${pct(META)} aim`}.`,
  );
  console.log(
    `Measured @sino/* at ${fontesMedidas.commit}` +
      (fontesMedidas.alteradasSemCommit
        ? ` plus ${fontesMedidas.alteradasSemCommit} uncommitted file(s) in packages/sino-{js,react}.`
        : '.'),
  );
  mkdirSync(join(raiz, 'bench/results'), { recursive: true });
  writeFileSync(
    join(raiz, 'bench/results/bundle-inbox.json'),
    JSON.stringify(
      {
        data: new Date().toISOString(),
        cargaMedia: loadavg(),
        fontesMedidas,
        versoes: {
          node: process.version,
          vite: versaoDoVite,
          react: versao('react'),
          novu: versao('@novu/notification-center'),
        },
        medidas,
        adicionado: {
          novu: novuAdiciona,
          sino: sinoAdiciona,
          sinoComPainelEPtBR: sinoTotalAdiciona,
        },
        razaoGzip: razao,
        razaoGzipComPainelEPtBR: razaoTotal,
        limite: LIMITE,
        meta: META,
        decomposicoes,
      },
      null,
      2,
    ),
  );
  // Both readings are held to the limit: the initial load, and all of it once the bell opened.
  if (razao > LIMITE || razaoTotal > LIMITE) process.exitCode = 1;
} finally {
  if (process.env.BENCH_KEEP_OUTPUT) console.log(`\nBuilt apps kept in ${temporaria}`);
  else rmSync(temporaria, { recursive: true, force: true });
}
