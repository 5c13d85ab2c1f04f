import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testRunLog } from '@locadora/db/testing';
import { cpfValido, varrer, varrerPasta } from '../varredura-de-logs.js';
import prepararVarredura from '../varredura-da-execucao.js';

/**
 * The scan of the whole run's logs (vitest's globalSetup) must itself be able to fail: each
 * kind of secret and personal data it looks for is caught here, in a log line as pino writes
 * it, and ordinary log lines pass.
 */
const linha = (campos: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: 1_795_594_712_798, pid: 4242, msg: 'x', ...campos });

const pastas: string[] = [];
const pastaTemporaria = () => {
  const pasta = mkdtempSync(join(tmpdir(), 'varredura-teste-'));
  pastas.push(pasta);
  return pasta;
};
afterEach(() => pastas.splice(0).forEach((p) => rmSync(p, { recursive: true, force: true })));

describe('varrer', () => {
  it.each([
    [
      'hash argon2',
      { err: { detail: 'Failing row contains ($argon2id$v=19$m=19456,t=2,p=1$abc)' } },
    ],
    [
      'JWT',
      {
        token:
          'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwicGFwZWwiOiJjbGllbnRlIn0.c2lnbmF0dXJlLWFxdWktMTIz',
      },
    ],
    ['chave de API do Sino', { apiKey: 'a3'.repeat(32) }],
    ['e-mail', { msg: 'login de cliente7.123@teste.dev falhou' }],
    ['CPF', { cpf: '529.982.247-25' }],
    ['CPF', { params: 'maria, 52998224725, B' }],
    ['telefone', { telefone: '(31) 99876-5432' }],
    ['telefone', { valor: '31988887777' }],
    ['SQL com parâmetros', { err: { message: 'Failed query: insert into "usuarios"' } }],
    ['SQL com parâmetros', { err: { message: 'x\nparams: 1,2' } }],
  ])('acha %s', (tipo, campos) => {
    const achados = varrer(linha(campos), []);
    expect(achados.map((a) => a.tipo)).toContain(tipo);
  });

  it('acha os valores registrados, também como o JSON os escreve', () => {
    const conhecidos = [
      { kind: 'senha', value: 'Cliente@2026' },
      { kind: 'segredo', value: 'segredo "com aspas" de teste' },
    ];
    const achados = varrer(
      [linha({ corpo: 'Cliente@2026' }), linha({ m: 'segredo "com aspas" de teste' })].join('\n'),
      conhecidos,
      'a.log',
    );
    expect(achados).toEqual([
      { tipo: 'senha (registrado)', arquivo: 'a.log', linha: 1, trecho: 'Client…(12)' },
      { tipo: 'segredo (registrado)', arquivo: 'a.log', linha: 2, trecho: expect.any(String) },
    ]);
  });

  it('deixa passar as linhas comuns de um log', () => {
    const comuns = [
      linha({
        reqId: '8c4d1e0e-db0b-485d-8232-b97905912479',
        req: { method: 'POST', url: '/api/Cadastro', remoteAddress: '127.0.0.1' },
      }),
      linha({ res: { statusCode: 201 }, responseTime: 124.66762700000072 }),
      linha({ err: { type: 'QueryError', code: '23505', constraint: 'usuarios_cpf_unico' } }),
      linha({ transactionId: '6790a1b2c3d4e5f6a7b8c9d0', queue: 'sino-test-0123456789ab' }),
      linha({ id: 12345678901, quantidade: 31988887777.5 }),
    ];
    expect(varrer(comuns.join('\n'), [])).toEqual([]);
  });

  it('confere os dígitos do CPF', () => {
    expect(cpfValido('52998224725')).toBe(true);
    expect(cpfValido('52998224726')).toBe(false);
    expect(cpfValido('11111111111')).toBe(false);
  });
});

describe('o registro da execução', () => {
  it('leva as linhas e os valores de cada app de teste à pasta varrida', () => {
    const pasta = pastaTemporaria();
    const anterior = process.env.TEST_LOG_DIR;
    process.env.TEST_LOG_DIR = pasta;
    try {
      const registro = testRunLog();
      registro.knownSecrets('segredo', ['curto', 'um-segredo-longo']);
      registro.knownSecretsIn({ nome: 'Maria', contato: { senha: 'senha-do-corpo' } });
      registro.write(linha({ m: 'um-segredo-longo e senha-do-corpo, curto, Maria' }));
      registro.close();
    } finally {
      process.env.TEST_LOG_DIR = anterior;
    }
    expect(varrerPasta(pasta).map((a) => a.tipo)).toEqual([
      'segredo (registrado)',
      'senha (registrado)',
    ]);
  });

  it('faz a execução falhar quando acha algo, e apaga a pasta quando não', () => {
    const anterior = { pasta: process.env.TEST_LOG_DIR, codigo: process.exitCode };
    const erros: unknown[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => void erros.push(args);
    try {
      const limpa = prepararVarredura();
      const pastaLimpa = process.env.TEST_LOG_DIR!;
      writeFileSync(join(pastaLimpa, 'a.log'), `${linha({})}\n`);
      process.exitCode = 0;
      limpa();
      expect(process.exitCode).toBe(0);
      expect(() => readdirSync(pastaLimpa)).toThrow();

      const suja = prepararVarredura();
      const pastaSuja = process.env.TEST_LOG_DIR!;
      pastas.push(pastaSuja);
      writeFileSync(join(pastaSuja, 'a.log'), `${linha({ email: 'vaza@teste.dev' })}\n`);
      suja();
      expect(process.exitCode).toBe(1);
      expect(String(erros.flat().join(' '))).toContain('a.log:1  e-mail: vaza@t…(14)');
    } finally {
      console.error = consoleError;
      process.env.TEST_LOG_DIR = anterior.pasta;
      process.exitCode = anterior.codigo;
    }
  });
});
