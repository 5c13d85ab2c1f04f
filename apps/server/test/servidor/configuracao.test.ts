import { describe, expect, it } from 'vitest';
import {
  ConfiguracaoInvalida,
  FOLGA_DO_ENCERRAMENTO_MS,
  lerConfiguracao,
  SEGREDOS_DOS_PROVEDORES_DE_ACESSO,
} from '../../src/configuracao.js';

describe('configuration', () => {
  it('has embedded defaults: port 3000, PGlite in ./data, demo accounts', () => {
    const c = lerConfiguracao({});
    expect(c).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      SEED_DEMO_ACCOUNTS: true,
      RENTAL_TURNAROUND_HOURS: 2,
      SINO_WORKER_CONCURRENCY: 256,
      // A store that does not answer fails a request within 10 s (decision 027).
      DATABASE_CONNECT_TIMEOUT_SECONDS: 5,
      DATABASE_QUERY_TIMEOUT_SECONDS: 5,
      REDIS_COMMAND_TIMEOUT_SECONDS: 5,
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

  it("PUBLIC_URL: Locadora's address for the e-mails' links, without a trailing slash; localhost:PORT unset", () => {
    expect(lerConfiguracao({}).PUBLIC_URL).toBe('http://localhost:3000');
    expect(lerConfiguracao({ PORT: '8080' }).PUBLIC_URL).toBe('http://localhost:8080');
    expect(lerConfiguracao({ PUBLIC_URL: 'https://Locadora.Example.com/' }).PUBLIC_URL).toBe(
      'https://locadora.example.com',
    );
    expect(lerConfiguracao({ PUBLIC_URL: 'https://example.com/locadora/' }).PUBLIC_URL).toBe(
      'https://example.com/locadora',
    );
    for (const ruim of [
      'ftp://example.com',
      'https://user:senha@example.com',
      'https://example.com/?a=1',
      'https://example.com/#x',
      'https://example.com/{{x}}',
      'https://example.com/"onclick',
      'não é url',
    ]) {
      let erro: unknown;
      try {
        lerConfiguracao({ PUBLIC_URL: ruim });
      } catch (e) {
        erro = e;
      }
      expect(erro, ruim).toBeInstanceOf(ConfiguracaoInvalida);
      expect((erro as ConfiguracaoInvalida).problemas.join('\n'), ruim).toMatch(/^PUBLIC_URL/);
      // The refused value is not echoed (it might carry a password).
      expect((erro as Error).message).not.toContain('senha');
    }
  });

  it("reads the installation's Redis prefix, refusing one a key or channel name should not hold", () => {
    expect(lerConfiguracao({}).SINO_REDIS_PREFIX).toBeUndefined();
    expect(lerConfiguracao({ SINO_REDIS_PREFIX: 'locadora-sp_2' }).SINO_REDIS_PREFIX).toBe(
      'locadora-sp_2',
    );
    expect(() => lerConfiguracao({ SINO_REDIS_PREFIX: 'a:b*' })).toThrow(
      /SINO_REDIS_PREFIX: must be 1 to 64 letters, digits, _ or -/,
    );
  });

  it('reads the delivery settings: retry waits in seconds, base URLs as JSON', () => {
    const c = lerConfiguracao({
      SINO_DELIVERY_RETRY_SECONDS: '1, 2.5,60',
      SINO_PROVIDER_BASE_URLS:
        '{"sendgrid":"https://proxy.example","nodemailer":"smtp://relay:2525"}',
    });
    expect(c.SINO_DELIVERY_RETRY_SECONDS).toEqual([1000, 2500, 60_000]);
    expect(c.SINO_PROVIDER_BASE_URLS).toEqual({
      sendgrid: 'https://proxy.example',
      nodemailer: 'smtp://relay:2525',
    });
    expect(c.SINO_DELIVERY_TIMEOUT_MS).toBe(15_000);
    let erro: unknown;
    try {
      lerConfiguracao({
        SINO_DELIVERY_RETRY_SECONDS: 'soon',
        SINO_PROVIDER_BASE_URLS: '{"sendgrid":"ftp://x"}',
      });
    } catch (e) {
      erro = e;
    }
    expect((erro as ConfiguracaoInvalida).problemas).toEqual([
      'SINO_DELIVERY_RETRY_SECONDS: must be seconds separated by commas, e.g. 15,30,60',
      'SINO_PROVIDER_BASE_URLS.sendgrid: must be an http(s) or smtp(s) URL',
    ]);
    expect(() => lerConfiguracao({ SINO_PROVIDER_BASE_URLS: 'not json' })).toThrow(
      /SINO_PROVIDER_BASE_URLS: must be a JSON object of provider id to URL/,
    );
  });

  it('stops the start on a base URL carrying a password, and reads the allowed networks', () => {
    let erro: unknown;
    try {
      lerConfiguracao({
        SINO_PROVIDER_BASE_URLS: '{"sendgrid":"https://api:sg-proxy-pass@proxy.example"}',
        SINO_PROVIDER_ALLOWED_NETWORKS: '10.0.0.0/8, relay.internal',
      });
    } catch (e) {
      erro = e;
    }
    expect((erro as ConfiguracaoInvalida).problemas).toEqual([
      'SINO_PROVIDER_BASE_URLS.sendgrid: must not carry a user name or password',
      'SINO_PROVIDER_ALLOWED_NETWORKS: must be addresses or CIDRs separated by commas, e.g. 10.0.0.0/8,192.168.1.20',
    ]);
    expect((erro as Error).message).not.toContain('sg-proxy-pass');
    expect(
      lerConfiguracao({ SINO_PROVIDER_ALLOWED_NETWORKS: '10.20.0.0/16, 192.168.1.25,fd00::/8' })
        .SINO_PROVIDER_ALLOWED_NETWORKS,
    ).toEqual(['10.20.0.0/16', '192.168.1.25', 'fd00::/8']);
  });

  it('reads the shutdown grace in whole milliseconds, refusing anything else by name', () => {
    expect(lerConfiguracao({}).SHUTDOWN_GRACE_MS).toBe(8000);
    expect(lerConfiguracao({ SHUTDOWN_GRACE_MS: '0' }).SHUTDOWN_GRACE_MS).toBe(0);
    expect(lerConfiguracao({ SHUTDOWN_GRACE_MS: ' 25000 ' }).SHUTDOWN_GRACE_MS).toBe(25_000);
    // The whole close ends past the grace plus a margin for the HTTP server and connections.
    expect(FOLGA_DO_ENCERRAMENTO_MS).toBeGreaterThan(0);
    for (const invalido of ['8s', '-1', '1.5', '1e3', '0x10', '600001', 'muito']) {
      let erro: unknown;
      try {
        lerConfiguracao({ SHUTDOWN_GRACE_MS: invalido });
      } catch (e) {
        erro = e;
      }
      expect((erro as ConfiguracaoInvalida).problemas, invalido).toEqual([
        'SHUTDOWN_GRACE_MS: must be a whole number of milliseconds from 0 to 600000 (e.g. 8000)',
      ]);
    }
  });

  it('keeps messages forever unless a retention in whole days is given', () => {
    expect(lerConfiguracao({}).SINO_MESSAGE_RETENTION_DAYS).toBeUndefined();
    expect(lerConfiguracao({ SINO_MESSAGE_RETENTION_DAYS: '' }).SINO_MESSAGE_RETENTION_DAYS).toBe(
      undefined,
    );
    expect(lerConfiguracao({ SINO_MESSAGE_RETENTION_DAYS: '90' }).SINO_MESSAGE_RETENTION_DAYS).toBe(
      90,
    );
    for (const invalido of ['0', '30d', '7.5', '-30', '36501']) {
      expect(() => lerConfiguracao({ SINO_MESSAGE_RETENTION_DAYS: invalido }), invalido).toThrow(
        'SINO_MESSAGE_RETENTION_DAYS: must be a whole number of days from 1 to 36500; leave it unset to keep messages forever',
      );
    }
  });

  it('keeps delivery analytics 90 days unless another whole number of days is given', () => {
    expect(lerConfiguracao({}).SINO_ANALYTICS_RETENTION_DAYS).toBeUndefined();
    expect(
      lerConfiguracao({ SINO_ANALYTICS_RETENTION_DAYS: '30' }).SINO_ANALYTICS_RETENTION_DAYS,
    ).toBe(30);
    for (const invalido of ['0', '30d', '7.5', '36501']) {
      expect(() => lerConfiguracao({ SINO_ANALYTICS_RETENTION_DAYS: invalido }), invalido).toThrow(
        'SINO_ANALYTICS_RETENTION_DAYS: must be a whole number of days from 1 to 36500; leave it unset to keep 90 days',
      );
    }
  });

  it("reads Sino's platform mail and sign-up; a wrong mail URL is refused without quoting it", () => {
    expect(lerConfiguracao({})).toMatchObject({ SINO_SIGNUP: 'invitation' });
    expect(lerConfiguracao({}).SINO_MAIL_URL).toBeUndefined();
    const url = 'smtps://mailer:segredo-do-smtp@smtp.example.com:465';
    expect(
      lerConfiguracao({
        SINO_MAIL_URL: url,
        SINO_MAIL_FROM: 'Sino <no-reply@example.com>',
        SINO_SIGNUP: 'open',
      }),
    ).toMatchObject({
      SINO_MAIL_URL: url,
      SINO_MAIL_FROM: 'Sino <no-reply@example.com>',
      SINO_SIGNUP: 'open',
    });
    for (const errado of ['http://mailer:segredo-do-smtp@smtp.example.com', 'segredo-do-smtp']) {
      let erro: unknown;
      try {
        lerConfiguracao({ SINO_MAIL_URL: errado });
      } catch (e) {
        erro = e;
      }
      expect((erro as ConfiguracaoInvalida).problemas).toEqual([
        'SINO_MAIL_URL: must be an smtp:// or smtps:// URL (user:password@ optional)',
      ]);
      expect((erro as Error).message).not.toContain('segredo-do-smtp');
    }
    expect(() => lerConfiguracao({ SINO_SIGNUP: 'anyone' })).toThrow(
      'SINO_SIGNUP: must be open or invitation',
    );
  });

  it('keeps metrics off unless enabled, and never enabled without a token', () => {
    expect(lerConfiguracao({})).toMatchObject({ METRICS_ENABLED: false });
    expect(lerConfiguracao({}).METRICS_TOKEN).toBeUndefined();
    const token = 'token-de-metricas-com-mais-de-32-caracteres';
    expect(lerConfiguracao({ METRICS_ENABLED: 'true', METRICS_TOKEN: token })).toMatchObject({
      METRICS_ENABLED: true,
      METRICS_TOKEN: token,
    });
    expect(() => lerConfiguracao({ METRICS_ENABLED: 'true' })).toThrow(
      /METRICS_TOKEN: required when METRICS_ENABLED is true/,
    );
    let erro: unknown;
    try {
      lerConfiguracao({ METRICS_ENABLED: 'true', METRICS_TOKEN: 'curto-demais' });
    } catch (e) {
      erro = e;
    }
    expect((erro as ConfiguracaoInvalida).problemas).toEqual([
      'METRICS_TOKEN: must have at least 32 characters',
    ]);
    expect((erro as Error).message).not.toContain('curto-demais');
  });

  it('reads the OTLP exporter settings: HTTP endpoints, protobuf by default, no gRPC', () => {
    expect(lerConfiguracao({})).toMatchObject({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_SERVICE_NAME: 'locadora-sino',
      OTEL_SDK_DISABLED: false,
    });
    expect(lerConfiguracao({}).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    let erro: unknown;
    try {
      lerConfiguracao({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'coletor:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      });
    } catch (e) {
      erro = e;
    }
    expect((erro as ConfiguracaoInvalida).problemas).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT: must be an http(s) URL',
      'OTEL_EXPORTER_OTLP_PROTOCOL: must be http/protobuf or http/json',
    ]);
  });

  it('ROLE other than all requires the shared secrets from the environment, listed together', () => {
    const problemas = (ambiente: Record<string, string>) => {
      try {
        lerConfiguracao(ambiente);
        return [];
      } catch (e) {
        return (e as ConfiguracaoInvalida).problemas;
      }
    };
    const falta = (nome: string, role: string) =>
      `${nome}: is required when ROLE is ${role}: every process of the installation must share it (only ROLE=all generates development secrets)`;
    expect(problemas({ ROLE: 'worker' })).toEqual([
      falta('JWT_SECRET', 'worker'),
      falta('SINO_API_KEY', 'worker'),
      falta('SINO_WIDGET_JWT_SECRET', 'worker'),
      falta('SINO_ENCRYPTION_KEY', 'worker'),
    ]);
    const segredos = {
      JWT_SECRET: 'j'.repeat(32),
      SINO_API_KEY: 'k'.repeat(32),
      SINO_WIDGET_JWT_SECRET: 'w'.repeat(32),
      SINO_ENCRYPTION_KEY: 'e'.repeat(32),
    };
    expect(problemas({ ROLE: 'api', ...segredos })).toEqual([]);
    // Sino alone needs only its own; a socket node needs Redis too.
    expect(problemas({ ROLE: 'ws', HALVES: 'sino' })).toEqual([
      falta('SINO_WIDGET_JWT_SECRET', 'ws'),
      falta('SINO_ENCRYPTION_KEY', 'ws'),
      'REDIS_URL: is required when ROLE is ws: socket events reach it from the other processes through Redis',
    ]);
    expect(problemas({})).toEqual([]);
    expect(lerConfiguracao({}).HALVES).toEqual(['locadora', 'sino']);
  });

  it('sign-in with GitHub and Google: off by default, a client id with its secret, and the public URL', () => {
    const problemas = (ambiente: Record<string, string>) => {
      try {
        lerConfiguracao(ambiente);
        return [];
      } catch (e) {
        return (e as ConfiguracaoInvalida).problemas;
      }
    };
    const padrao = lerConfiguracao({});
    expect(padrao).toMatchObject({
      SINO_SIGNUP: 'invitation',
      SINO_GITHUB_URL: 'https://github.com',
      SINO_GITHUB_API_URL: 'https://api.github.com',
      SINO_GOOGLE_ISSUER: 'https://accounts.google.com',
    });
    expect(padrao.SINO_GITHUB_CLIENT_ID).toBeUndefined();
    expect(padrao.SINO_GOOGLE_CLIENT_ID).toBeUndefined();
    const segredo = 'a-client-secret-never-quoted-0123';
    const erros = [
      ...problemas({ SINO_GITHUB_CLIENT_ID: 'gh-id', SINO_PUBLIC_URL: 'https://sino.example' }),
      ...problemas({ SINO_GOOGLE_CLIENT_SECRET: segredo, SINO_PUBLIC_URL: 'https://sino.example' }),
    ];
    expect(erros).toEqual([
      'SINO_GITHUB_CLIENT_SECRET: is required with SINO_GITHUB_CLIENT_ID',
      'SINO_GOOGLE_CLIENT_ID: is required with SINO_GOOGLE_CLIENT_SECRET',
    ]);
    expect(
      problemas({ SINO_GOOGLE_CLIENT_ID: 'g-id', SINO_GOOGLE_CLIENT_SECRET: segredo }),
    ).toEqual([
      'SINO_PUBLIC_URL: is required with SINO_GOOGLE_CLIENT_ID: the provider sends people back to <SINO_PUBLIC_URL>/v1/auth/.../callback',
    ]);
    expect(problemas({ SINO_SIGNUP: 'everyone', SINO_GITHUB_URL: 'ftp://github.example' })).toEqual(
      ['SINO_SIGNUP: must be open or invitation', 'SINO_GITHUB_URL: must be an http(s) URL'],
    );
    const c = lerConfiguracao({
      SINO_SIGNUP: 'open',
      SINO_PUBLIC_URL: 'https://sino.example',
      SINO_GITHUB_CLIENT_ID: 'gh-id',
      SINO_GITHUB_CLIENT_SECRET: segredo,
      SINO_GITHUB_URL: 'https://github.example.com',
      SINO_GITHUB_API_URL: 'https://github.example.com/api/v3',
    });
    expect(c).toMatchObject({ SINO_SIGNUP: 'open', SINO_GITHUB_CLIENT_SECRET: segredo });
    // Both secrets are marked as such, and no error quotes one.
    expect(SEGREDOS_DOS_PROVEDORES_DE_ACESSO).toEqual([
      'SINO_GITHUB_CLIENT_SECRET',
      'SINO_GOOGLE_CLIENT_SECRET',
    ]);
    expect(erros.join('\n')).not.toContain(segredo);
  });

  it('SINO_URL: Locadora alone, with the key of the remote Sino', () => {
    const c = lerConfiguracao({
      SINO_URL: 'http://sino.internal:3000',
      SINO_API_KEY: 'k'.repeat(32),
    });
    expect(c.HALVES).toEqual(['locadora']);
    expect(() => lerConfiguracao({ SINO_URL: 'http://sino.internal:3000' })).toThrow(
      'SINO_API_KEY: is required with SINO_URL',
    );
    expect(() =>
      lerConfiguracao({
        SINO_URL: 'http://sino.internal:3000',
        SINO_API_KEY: 'k'.repeat(32),
        HALVES: 'locadora,sino',
      }),
    ).toThrow('HALVES: must not include sino when SINO_URL is set');
    expect(() => lerConfiguracao({ SINO_URL: 'ftp://sino' })).toThrow(
      'SINO_URL: must be an http(s) URL',
    );
    expect(() => lerConfiguracao({ HALVES: 'frota' })).toThrow('HALVES');
  });

  it('previous keys of a rotation: beside their current key, none equal to it, none short, none twice', () => {
    const problemas = (ambiente: Record<string, string>) => {
      try {
        lerConfiguracao(ambiente);
        return [];
      } catch (e) {
        return (e as ConfiguracaoInvalida).problemas;
      }
    };
    const atual = 'chave-atual-da-rotacao-com-mais-de-32-caracteres';
    const anterior = 'chave-anterior-da-rotacao-com-mais-de-32-caracteres';
    const c = lerConfiguracao({
      JWT_SECRET: atual,
      JWT_SECRETS_PREVIOUS: ` ${anterior} , outra-${anterior}`,
      SINO_ENCRYPTION_KEY: atual,
      SINO_ENCRYPTION_KEYS_PREVIOUS: anterior,
    });
    expect(c.JWT_SECRETS_PREVIOUS).toEqual([anterior, `outra-${anterior}`]);
    expect(c.SINO_ENCRYPTION_KEYS_PREVIOUS).toEqual([anterior]);
    expect(c.SINO_WIDGET_JWT_SECRETS_PREVIOUS).toBeUndefined();

    const recusados = problemas({
      JWT_SECRETS_PREVIOUS: anterior,
      SINO_WIDGET_JWT_SECRET: atual,
      SINO_WIDGET_JWT_SECRETS_PREVIOUS: `${anterior},${atual}`,
      SINO_ENCRYPTION_KEY: atual,
      SINO_ENCRYPTION_KEYS_PREVIOUS: `${anterior},curta`,
    });
    expect(recusados).toEqual([
      'SINO_ENCRYPTION_KEYS_PREVIOUS.1: each key must have at least 32 characters',
    ]);
    expect(
      problemas({
        JWT_SECRETS_PREVIOUS: anterior,
        SINO_WIDGET_JWT_SECRET: atual,
        SINO_WIDGET_JWT_SECRETS_PREVIOUS: `${anterior},${atual}`,
        SINO_ENCRYPTION_KEY: atual,
        SINO_ENCRYPTION_KEYS_PREVIOUS: `${anterior},${anterior}`,
      }),
    ).toEqual(['SINO_ENCRYPTION_KEYS_PREVIOUS: must not list a key twice']);
    expect(
      problemas({
        JWT_SECRETS_PREVIOUS: anterior,
        SINO_WIDGET_JWT_SECRET: atual,
        SINO_WIDGET_JWT_SECRETS_PREVIOUS: `${anterior},${atual}`,
      }),
    ).toEqual([
      'JWT_SECRETS_PREVIOUS: needs JWT_SECRET set: previous keys are kept beside an explicit current one',
      'SINO_WIDGET_JWT_SECRETS_PREVIOUS: must not list the current key (SINO_WIDGET_JWT_SECRET)',
    ]);
  });
});
