/**
 * What a rotation of SINO_ENCRYPTION_KEY costs (decision 038): `BENCH_INTEGRATIONS`
 * integrations (5,000 by default, a tenth of them sealed as before key ids, `v1`) sealed under
 * key A, then re-sealed under B with A as previous, as a worker does at start; then the same
 * with nothing left to do (what every later start pays). On in-memory PGlite, or on a fresh
 * database of the PostgreSQL server at BENCH_DATABASE_URL.
 *
 *   npm run bench:resselagem
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:resselagem
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { openDatabase } from '@locadora/db';
import { createSecretBox, resealSecrets, sinoMigrations } from '@sino/core';

const QUANTAS = Number(process.env.BENCH_INTEGRATIONS ?? 5000);
const SERVIDOR = process.env.BENCH_DATABASE_URL;
const CHAVE_A = randomBytes(32).toString('base64url');
const CHAVE_B = randomBytes(32).toString('base64url');

/** A database of its own on the server, dropped at the end; in-memory PGlite without one. */
async function bancoDoBench() {
  if (!SERVIDOR) return { url: undefined, apagar: async () => {} };
  const nome = `bench_resselagem_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: SERVIDOR });
  await admin.connect();
  await admin.query(`create database "${nome}"`);
  await admin.end();
  const url = new URL(SERVIDOR);
  url.pathname = `/${nome}`;
  return {
    url: url.toString(),
    async apagar() {
      const cliente = new pg.Client({ connectionString: SERVIDOR });
      await cliente.connect();
      await cliente.query(`drop database if exists "${nome}" with (force)`);
      await cliente.end();
    },
  };
}

const id = () => randomBytes(12).toString('hex');

const alvo = await bancoDoBench();
const banco = await openDatabase({ url: alvo.url, dataDir: 'memory://', statementTimeoutMs: 0 });
try {
  await banco.migrate([sinoMigrations]);
  const organizacao = id();
  const ambiente = id();
  await banco.executeSql(`insert into sino.organizations (id, name) values ($1, 'Bench')`, [
    organizacao,
  ]);
  await banco.executeSql(
    `insert into sino.environments (id, organization_id, name, identifier) values ($1, $2, 'Development', $3)`,
    [ambiente, organizacao, `bench-${ambiente}`],
  );
  const caixaA = createSecretBox(CHAVE_A);
  const credenciais = JSON.stringify({
    apiKey: `SG.${randomBytes(24).toString('base64url')}`,
    from: 'reservas@locadora.example',
    senderName: 'Locadora',
  });
  // Sealed as before key ids: under A, `v1.<iv>.<tag>.<data>` (the v2 value without its id).
  const comoV1 = (selado: string) => `v1.${selado.split('.').slice(2).join('.')}`;
  for (let inicio = 0; inicio < QUANTAS; inicio += 500) {
    const linhas = Array.from({ length: Math.min(500, QUANTAS - inicio) }, (_, i) => {
      const n = inicio + i;
      const selado = caixaA.seal(credenciais);
      return [id(), `sendgrid-${n}`, n % 10 === 0 ? comoV1(selado) : selado];
    });
    await banco.executeSql(
      `insert into sino.integrations (id, environment_id, organization_id, provider_id, channel, name, identifier, credentials_ciphertext)
       select x.id, $1, $2, 'sendgrid', 'email', 'SendGrid', x.identifier, x.selado
       from unnest($3::text[], $4::text[], $5::text[]) as x(id, identifier, selado)`,
      [ambiente, organizacao, ...[0, 1, 2].map((c) => linhas.map((l) => l[c]))],
    );
  }

  const medir = async (rotulo: string, chaves: Parameters<typeof resealSecrets>[1]) => {
    const inicio = performance.now();
    const relatorio = await resealSecrets(banco.db, chaves);
    const ms = performance.now() - inicio;
    console.log(
      `${rotulo}: ${relatorio.resealed} re-sealed, ${relatorio.unopened.length} not opened, ${ms.toFixed(0)} ms` +
        (relatorio.resealed > 0 ? ` (${((relatorio.resealed / ms) * 1000).toFixed(0)}/s)` : ''),
    );
    return relatorio;
  };
  console.log(
    `${banco.driver}, ${QUANTAS} integrations, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const rotacao = await medir('re-seal under B, A previous', {
    current: CHAVE_B,
    previous: [CHAVE_A],
  });
  if (rotacao.resealed !== QUANTAS) throw new Error(`re-sealed ${rotacao.resealed} of ${QUANTAS}`);
  const depois = await medir('a later start, nothing to do', { current: CHAVE_B });
  if (depois.resealed !== 0 || depois.unopened.length !== 0)
    throw new Error('something was left under another key');
} finally {
  await banco.close();
  await alvo.apagar();
}
