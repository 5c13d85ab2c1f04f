/**
 * What an unsigned provider webhook costs the server before it is refused (issue 17): the real
 * server on PostgreSQL, a Twilio and a Plivo integration, and bodies of 1 MiB with 120,000
 * form parameters posted to their webhook routes, without a signature and with a wrong one,
 * plus a body over the route's limit. Each case is timed from the request to the answer, over
 * loopback. See bench/README.md, section "Webhooks".
 *
 *   npm run bench:webhooks                     # uses postgres://postgres@127.0.0.1:5432/postgres
 *   BENCH_REQUESTS=50 npm run bench:webhooks
 */
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { criarBanco, iniciarServidor, pararServidor } from './servidor.js';

const SERVIDOR = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORTA = Number(process.env.BENCH_PORT ?? 3291);
const BASE = `http://127.0.0.1:${PORTA}`;
const REQUISICOES = Number(process.env.BENCH_REQUESTS ?? 30);
const raiz = fileURLToPath(new URL('..', import.meta.url));

/** `0=v&1=v&…`: `parametros` form parameters in exactly `bytes` bytes. */
function corpoDeParametros(bytes: number, parametros: number): Buffer {
  const partes = Array.from({ length: parametros }, (_, i) => `${i.toString(36)}=v`);
  const texto = partes.join('&');
  if (texto.length > bytes) throw new Error(`${parametros} parameters need ${texto.length} bytes`);
  // The last value takes up the rest.
  return Buffer.from(texto + 'v'.repeat(bytes - texto.length));
}

/** CPU time (user + system) the process has used so far, in milliseconds (Linux). */
function cpuMs(pid: number): number {
  const campos = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second).
  return (Number(campos[11]) + Number(campos[12])) * 10;
}

interface Caso {
  nome: string;
  caminho: string;
  cabecalhos: Record<string, string>;
  corpo: Buffer;
}

interface Medida {
  caso: string;
  status: number;
  /** Server CPU per request, ms (averaged: the clock ticks in 10 ms). */
  cpuMs: number;
  p50: number;
  p90: number;
  max: number;
}

/**
 * One POST over a fresh connection, timed to its answer. A server that answers early (413)
 * and closes may break the upload: the answer counts, the broken pipe does not.
 */
function enviar(caso: Caso): Promise<number> {
  return new Promise((resolve, reject) => {
    const pedido = request(`${BASE}${caso.caminho}`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': caso.corpo.length,
        ...caso.cabecalhos,
      },
    });
    pedido.on('response', (resposta) => {
      resposta.resume();
      resposta.on('end', () => resolve(resposta.statusCode ?? 0));
    });
    pedido.on('error', (erro: NodeJS.ErrnoException) => {
      if (erro.code !== 'EPIPE' && erro.code !== 'ECONNRESET') reject(erro);
    });
    pedido.end(caso.corpo);
  });
}

async function medir(caso: Caso, pid: number): Promise<Medida> {
  const tempos: number[] = [];
  let status = 0;
  // The first three warm the server up.
  for (let i = 0; i < 3; i++) await enviar(caso);
  const cpuAntes = cpuMs(pid);
  for (let i = 0; i < REQUISICOES; i++) {
    const inicio = performance.now();
    status = await enviar(caso);
    tempos.push(performance.now() - inicio);
  }
  const cpu = Number(((cpuMs(pid) - cpuAntes) / REQUISICOES).toFixed(1));
  tempos.sort((a, b) => a - b);
  const em = (q: number) =>
    Number(tempos[Math.min(tempos.length - 1, Math.floor(q * tempos.length))]!.toFixed(1));
  return { caso: caso.nome, status, cpuMs: cpu, p50: em(0.5), p90: em(0.9), max: em(1) };
}

async function main() {
  const banco = await criarBanco(SERVIDOR, 'bench_webhooks');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  let servidor: ChildProcess | undefined;
  try {
    servidor = await iniciarServidor({ porta: PORTA, databaseUrl: banco.url, dataDir });
    const sino = JSON.parse(readFileSync(join(dataDir, 'sino-development.json'), 'utf8')) as {
      apiKey: string;
      organizationId: string;
      environmentId: string;
    };
    for (const integracao of [
      { providerId: 'twilio', credentials: { accountSid: 'AC1', token: 'tw-bench', from: '+1' } },
      { providerId: 'plivo', credentials: { accountSid: 'MA1', token: 'pl-bench', from: '+1' } },
    ]) {
      const r = await fetch(`${BASE}/v1/integrations`, {
        method: 'POST',
        headers: { authorization: `ApiKey ${sino.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'sms', active: true, ...integracao }),
      });
      if (r.status !== 201) throw new Error(`integration: ${r.status} ${await r.text()}`);
    }
    const rota = (provedor: string) =>
      `/v1/webhooks/organizations/${sino.organizationId}/environments/${sino.environmentId}/sms/${provedor}`;
    const grande = corpoDeParametros(1024 * 1024 - 1, 120_000);
    const semAssinatura = {};
    const twilio = { 'x-twilio-signature': 'bm90IGl0' };
    const plivo = { 'x-plivo-signature-v2': 'bm90IGl0', 'x-plivo-signature-v2-nonce': '1' };
    const casos: Caso[] = [
      ['Twilio, 1 MiB, 120,000 params, no signature', 'twilio', semAssinatura, grande],
      ['Twilio, 1 MiB, 120,000 params, wrong signature', 'twilio', twilio, grande],
      ['Plivo, 1 MiB, 120,000 params, wrong signature', 'plivo', plivo, grande],
      [
        'Twilio, 200 KiB, 24,000 params, wrong signature',
        'twilio',
        twilio,
        corpoDeParametros(200 * 1024, 24_000),
      ],
      ['Twilio, 2 MiB body', 'twilio', twilio, corpoDeParametros(2 * 1024 * 1024, 1000)],
      ['Twilio, 400 B callback, wrong signature', 'twilio', twilio, corpoDeParametros(400, 12)],
    ].map(([nome, provedor, cabecalhos, corpo]) => ({
      nome: nome as string,
      caminho: rota(provedor as string),
      cabecalhos: cabecalhos as Record<string, string>,
      corpo: corpo as Buffer,
    }));
    const medidas: Medida[] = [];
    for (const caso of casos) medidas.push(await medir(caso, servidor.pid!));
    console.table(medidas);
    const pasta = join(raiz, 'bench/results');
    mkdirSync(pasta, { recursive: true });
    writeFileSync(
      join(pasta, `webhooks-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
      `${JSON.stringify({ requisicoes: REQUISICOES, medidas }, null, 2)}\n`,
    );
  } finally {
    if (servidor) await pararServidor(servidor);
    await banco.apagar();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
