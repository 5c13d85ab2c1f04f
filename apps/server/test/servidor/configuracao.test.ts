import { describe, expect, it } from 'vitest';
import { ConfiguracaoInvalida, lerConfiguracao } from '../../src/configuracao.js';

describe('configuration', () => {
  it('has embedded defaults: port 3000, PGlite in ./data, demo accounts', () => {
    const c = lerConfiguracao({});
    expect(c).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      SEED_DEMO_ACCOUNTS: true,
      RENTAL_TURNAROUND_HOURS: 2,
      SINO_WORKER_CONCURRENCY: 24,
    });
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('treats empty variables as unset and parses booleans and numbers', () => {
    const c = lerConfiguracao({ PORT: '8080', DATABASE_URL: '', SEED_DEMO_ACCOUNTS: 'false' });
    expect(c.PORT).toBe(8080);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SEED_DEMO_ACCOUNTS).toBe(false);
  });

  it('lists every problem in one readable error', () => {
    let erro: unknown;
    try {
      lerConfiguracao({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        JWT_SECRET: 'curto',
        LOG_LEVEL: 'loud',
        SINO_WORKER_CONCURRENCY: '0',
      });
    } catch (e) {
      erro = e;
    }
    expect(erro).toBeInstanceOf(ConfiguracaoInvalida);
    const mensagem = (erro as Error).message;
    expect(mensagem).toMatch(/^Invalid configuration:/);
    expect((erro as ConfiguracaoInvalida).problemas.map((p) => p.split(':')[0])).toEqual([
      'PORT',
      'LOG_LEVEL',
      'DATABASE_URL',
      'JWT_SECRET',
      'SINO_WORKER_CONCURRENCY',
    ]);
    expect(mensagem).toContain(
      'DATABASE_URL: must be a postgres:// or postgresql:// connection URL',
    );
    expect(mensagem).toContain('JWT_SECRET: must have at least 32 characters');
  });
});
