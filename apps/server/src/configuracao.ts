import { z } from 'zod';
import { invalidNetworks } from '@sino/core';

const inteiro = (padrao: number, min = 1, max = 1_000_000) =>
  z.coerce.number().int().min(min).max(max).default(padrao);
const booleano = (padrao: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(padrao ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Keys kept beside a current one during a rotation (docs/decisions/038), comma-separated: each
 * still verifies or opens what it signed or sealed, none signs or seals. Never echoed back.
 */
const segredosAnteriores = () =>
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.string().min(32, { error: 'each key must have at least 32 characters' }))
        .min(1, { error: 'must list at least one key' })
        .refine((lista) => new Set(lista).size === lista.length, {
          error: 'must not list a key twice',
        }),
    )
    .optional();

/** An identity provider's URL (GitHub's, Google's): the operator's, with no password in it. */
const urlDeProvedor = () =>
  z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .refine((url) => !/^[a-z]+:\/\/[^/?#]*@/i.test(url), {
      error: 'must not carry a user name or password',
    });

/** A century: longer is "forever", which is what leaving it unset says. */
const RETENCAO_MAXIMA_DIAS = 36_500;
const RETENCAO_DE_ANALISES_INVALIDA = `must be a whole number of days from 1 to ${RETENCAO_MAXIMA_DIAS}; leave it unset to keep 90 days`;
const RETENCAO_INVALIDA = `must be a whole number of days from 1 to ${RETENCAO_MAXIMA_DIAS}; leave it unset to keep messages forever`;
/** The longest SHUTDOWN_GRACE_MS: beyond a few minutes a stop is a hang, not a grace. */
const GRACA_MAXIMA_MS = 600_000;
const GRACA_INVALIDA = `must be a whole number of milliseconds from 0 to ${GRACA_MAXIMA_MS} (e.g. 8000)`;
/**
 * What a close takes beyond the queue's grace: the HTTP server waits for its requests, then the
 * connections close. Past SHUTDOWN_GRACE_MS plus this, the process ends whatever is left.
 */
export const FOLGA_DO_ENCERRAMENTO_MS = 2_000;

/** Every setting of the server, read from environment variables; `.env.example` documents each. */
export const esquemaDeConfiguracao = z.object({
  PORT: inteiro(3000, 0, 65_535),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  PGLITE_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .url({
      protocol: /^postgres(ql)?$/,
      error: 'must be a postgres:// or postgresql:// connection URL',
    })
    .optional(),
  DATABASE_POOL_MAX: inteiro(10, 1, 200),
  /**
   * Seconds to wait for a PostgreSQL connection, new or free in the pool, before giving up (a
   * request answers 503; at start, the process exits with a reason).
   */
  DATABASE_CONNECT_TIMEOUT_SECONDS: inteiro(5, 1, 600),
  /** Seconds a statement may run or wait for its answer (then 503); 0 for no limit. */
  DATABASE_QUERY_TIMEOUT_SECONDS: inteiro(5, 0, 3_600),
  /** A Redis for Sino's job queue (BullMQ) and socket fan-out; the database queue when unset. */
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
    .optional(),
  /** Names this installation on REDIS_URL: its queue keys and socket channels start with it. */
  SINO_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be 1 to 64 letters, digits, _ or -' })
    .optional(),
  /** Seconds a request waits for Redis's answer (an enqueue) before answering 503. */
  REDIS_COMMAND_TIMEOUT_SECONDS: inteiro(5, 1, 600),
  /**
   * What this process runs: everything, or one role of a scaled-out deployment: `api` (the
   * HTTP APIs and the web app), `ws` (Sino's socket), `worker` (Sino's queue and Locadora's
   * outbox). Every role answers /health and /ready.
   */
  ROLE: z.enum(['all', 'api', 'worker', 'ws']).default('all'),
  /**
   * Which halves of the product this process runs, comma-separated: `locadora`, `sino`, or
   * both (the default; only `locadora` when SINO_URL is set).
   */
  HALVES: z
    .string()
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(z.enum(['locadora', 'sino'], { error: 'must be locadora, sino or both' }))
        .min(1, { error: 'must name locadora, sino or both' }),
    )
    .optional(),
  /** Sino's address when it runs apart (its own processes); Locadora calls it with SINO_API_KEY. */
  SINO_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .refine((url) => !/^[a-z]+:\/\/[^/?#]*@/i.test(url), {
      error: 'must not carry a user name or password',
    })
    .optional(),
  JWT_SECRET: z.string().min(32, { error: 'must have at least 32 characters' }).optional(),
  SINO_WIDGET_JWT_SECRET: z
    .string()
    .min(32, { error: 'must have at least 32 characters' })
    .optional(),
  SINO_ENCRYPTION_KEY: z.string().min(32, { error: 'must have at least 32 characters' }).optional(),
  /** Former JWT_SECRETs: access tokens they signed are accepted until they expire. */
  JWT_SECRETS_PREVIOUS: segredosAnteriores(),
  /** Former SINO_WIDGET_JWT_SECRETs: widget sessions they signed stay open until they expire. */
  SINO_WIDGET_JWT_SECRETS_PREVIOUS: segredosAnteriores(),
  /** Former SINO_ENCRYPTION_KEYs: what they sealed still opens, until re-sealed at start. */
  SINO_ENCRYPTION_KEYS_PREVIOUS: segredosAnteriores(),
  /** Key of Sino's server API Locadora uses; the first start's key in the data folder otherwise. */
  SINO_API_KEY: z.string().min(32, { error: 'must have at least 32 characters' }).optional(),
  /**
   * The e-mail of the admin account the first start gives Sino's organization (also the first
   * start after an upgrade from before console accounts), who signs in to the console.
   */
  SINO_ADMIN_EMAIL: z
    .string()
    .trim()
    .pipe(z.email({ error: 'must be an email address' }))
    .default('admin@sino.localhost'),
  /**
   * That admin's password; generated when unset, shown once on the terminal and kept in
   * `DATA_DIR/sino-admin.json` (mode 600). Never logged.
   */
  SINO_ADMIN_PASSWORD: z.string().min(12, { error: 'must have at least 12 characters' }).optional(),
  /** Name of the organization the first start creates in Sino. */
  SINO_ORGANIZATION_NAME: z.string().min(1).default('Locadora'),
  /** Server-API requests per second per Sino environment (Novu's business-tier limits). */
  SINO_RATE_LIMIT_TRIGGERS: inteiro(600, 1, 1_000_000),
  SINO_RATE_LIMIT_GENERAL: inteiro(300, 1, 1_000_000),
  /**
   * Hours the API keys a regeneration replaces keep working (POST
   * /v1/environments/api-keys/regenerate), so what uses them (Locadora, a customer's server)
   * can move to the new key; 0 revokes them at once, as Novu does. At most a week.
   */
  SINO_API_KEY_GRACE_HOURS: inteiro(24, 0, 168),
  /** Workflow steps a worker process runs at once (roles `all` and `worker`). */
  SINO_WORKER_CONCURRENCY: inteiro(256, 1, 10_000),
  /**
   * Days Sino keeps a notification's messages, execution details and jobs once its steps are
   * done; unset keeps them forever (Novu's behaviour). Trimmed hourly, in small batches.
   */
  /**
   * Days Sino keeps its delivery analytics (hourly counters per provider, decision 055); 90
   * when unset. Trimmed hourly.
   */
  SINO_ANALYTICS_RETENTION_DAYS: z
    .string()
    .regex(/^\s*\d{1,9}\s*$/, { error: RETENCAO_DE_ANALISES_INVALIDA })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: RETENCAO_DE_ANALISES_INVALIDA })
        .max(RETENCAO_MAXIMA_DIAS, { error: RETENCAO_DE_ANALISES_INVALIDA }),
    )
    .optional(),
  SINO_MESSAGE_RETENTION_DAYS: z
    .string()
    .regex(/^\s*\d{1,9}\s*$/, { error: RETENCAO_INVALIDA })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: RETENCAO_INVALIDA })
        .max(RETENCAO_MAXIMA_DIAS, { error: RETENCAO_INVALIDA }),
    )
    .optional(),
  /**
   * Milliseconds a closing process waits for the queue tasks it runs before handing their jobs
   * back to the queue for another node; the whole close is given this plus
   * FOLGA_DO_ENCERRAMENTO_MS before the process ends regardless.
   */
  SHUTDOWN_GRACE_MS: z
    // Digits only: "8s" or "1e3" are refused, not read as something else.
    .string()
    .regex(/^\s*\d{1,9}\s*$/, { error: GRACA_INVALIDA })
    .transform(Number)
    .pipe(z.number().max(GRACA_MAXIMA_MS, { error: GRACA_INVALIDA }))
    .default(8_000),
  /** Milliseconds before an unanswered provider request is abandoned (and retried). */
  SINO_DELIVERY_TIMEOUT_MS: inteiro(15_000, 100, 600_000),
  /** Seconds before each retry of a failed delivery, comma-separated; Sino's schedule when unset. */
  SINO_DELIVERY_RETRY_SECONDS: z
    .string()
    .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, {
      error: 'must be seconds separated by commas, e.g. 15,30,60',
    })
    .transform((v) => v.split(',').map((s) => Math.round(Number(s) * 1000)))
    .optional(),
  /** Base URL per provider id, as JSON: a proxy or a region, e.g. {"sendgrid":"https://…"}. */
  SINO_PROVIDER_BASE_URLS: z
    .string()
    .transform((v, ctx) => {
      try {
        return JSON.parse(v) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object of provider id to URL' });
        return z.NEVER;
      }
    })
    .pipe(
      z.record(
        z.string(),
        z
          .url({ protocol: /^(https?|smtps?)$/, error: 'must be an http(s) or smtp(s) URL' })
          // The URLs are logged and shown as configuration: a password does not go in one.
          .refine((url) => !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url), {
            error: 'must not carry a user name or password',
          }),
      ),
    )
    .optional(),
  /**
   * Networks (CIDR) and addresses provider destinations and webhook filters may reach although
   * they are loopback, private, link-local or reserved (a relay on the private network).
   */
  SINO_PROVIDER_ALLOWED_NETWORKS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => invalidNetworks(list).length === 0, {
      error: 'must be addresses or CIDRs separated by commas, e.g. 10.0.0.0/8,192.168.1.20',
    })
    .optional(),
  /**
   * Locadora's public address, as customers open it: e-mails link into it (the reservation,
   * the fine, the e-mail confirmation, the notification preferences). Unset: this server's
   * own address on localhost (development). A path is kept (behind a proxy's prefix); no user
   * name, password, query or fragment.
   */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .refine(
      (url) => {
        // Not a URL at all: the check above says so.
        if (!URL.canParse(url)) return true;
        const u = new URL(url);
        return !u.username && !u.password && !u.search && !u.hash && !/['"<>{}`\\]/.test(url);
      },
      { error: 'must be an http(s) URL without user name, password, query or fragment' },
    )
    .transform((url) => {
      const u = new URL(url);
      return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
    })
    .optional(),
  /** Where providers reach this server: messages' callback URLs (Plivo) start with it. */
  SINO_PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /**
   * Who may make a console account: `invitation` (an admin invites them) or `open` (anyone who
   * signs up, or signs in with GitHub or Google, gets an organization of their own).
   */
  SINO_SIGNUP: z
    .enum(['open', 'invitation'], { error: 'must be open or invitation' })
    .default('invitation'),
  /**
   * Sign-ups and password reset requests (each mails an address) an hour, per e-mail and per
   * client address; past either, 429 for the rest of the hour.
   */
  SINO_MAIL_REQUESTS_PER_EMAIL: inteiro(5, 1, 1_000),
  SINO_MAIL_REQUESTS_PER_ADDRESS: inteiro(20, 1, 100_000),
  /**
   * Console sign-in with GitHub (an OAuth app whose callback URL is
   * `<SINO_PUBLIC_URL>/v1/auth/github/callback`): its client id and secret, both or neither.
   * The secret is never logged.
   */
  SINO_GITHUB_CLIENT_ID: z.string().trim().min(1).max(200).optional(),
  SINO_GITHUB_CLIENT_SECRET: z.string().min(1).max(500).optional(),
  /** GitHub, or a GitHub Enterprise Server: where people sign in, and its REST API. */
  SINO_GITHUB_URL: urlDeProvedor().default('https://github.com'),
  SINO_GITHUB_API_URL: urlDeProvedor().default('https://api.github.com'),
  /**
   * Console sign-in with Google (OpenID Connect; redirect URI
   * `<SINO_PUBLIC_URL>/v1/auth/google/callback`): its client id and secret, both or neither.
   */
  SINO_GOOGLE_CLIENT_ID: z.string().trim().min(1).max(200).optional(),
  SINO_GOOGLE_CLIENT_SECRET: z.string().min(1).max(500).optional(),
  /** The OpenID issuer, discovered through its `/.well-known/openid-configuration`. */
  SINO_GOOGLE_ISSUER: urlDeProvedor().default('https://accounts.google.com'),
  /**
   * The installation's own mail (console invitations, password resets, e-mail verification):
   * `smtp://` or `smtps://`, with an optional `user:password@`. A secret: never logged, and
   * never quoted back in a configuration error.
   */
  SINO_MAIL_URL: z
    .string()
    .refine(
      (v) => {
        try {
          return ['smtp:', 'smtps:'].includes(new URL(v).protocol) && new URL(v).hostname !== '';
        } catch {
          return false;
        }
      },
      { error: 'must be an smtp:// or smtps:// URL (user:password@ optional)' },
    )
    .optional(),
  /** The sender of those mails, e.g. `Sino <no-reply@example.com>`. */
  SINO_MAIL_FROM: z.string().trim().min(3).max(320).optional(),
  /** A PEM file of certificate authorities trusted for providers (a private SMTP relay). */
  SINO_PROVIDER_CA_FILE: z.string().min(1).optional(),
  ACCESS_TOKEN_TTL_MINUTES: inteiro(15, 1, 24 * 60),
  SESSION_TTL_DAYS: inteiro(30, 1, 365),
  LOGIN_MAX_FAILURES: inteiro(5, 1, 1_000),
  LOGIN_MAX_FAILURES_PER_ADDRESS: inteiro(50, 1, 100_000),
  LOGIN_BLOCK_MINUTES: inteiro(15, 1, 24 * 60),
  RENTAL_TURNAROUND_HOURS: inteiro(2, 0, 72),
  FINE_DRIVER_INDICATION_DAYS: inteiro(30, 1, 365),
  SEED_DEMO_ACCOUNTS: booleano(true),
  TRUST_PROXY: booleano(false),
  /** Built web app to serve; apps/web/dist by default (`npm start` builds it). */
  WEB_DIST_DIR: z.string().min(1).optional(),
  /** Built Sino console to serve under /console; apps/console/dist by default (`npm start` builds it). */
  CONSOLE_DIST_DIR: z.string().min(1).optional(),
  /** Map tiles for the location screen ({z}/{x}/{y} template); any OSM-compatible server. */
  MAP_TILE_URL: z
    .string()
    .regex(/^https?:\/\/[^/]+\/.*\{z\}.*\{x\}.*\{y\}/, {
      error: 'must be an http(s) URL template with {z}, {x} and {y}',
    })
    .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  MAP_ATTRIBUTION: z.string().min(1).default('© OpenStreetMap contributors'),
  /** An external BI report shown in a frame on the dashboard, beside the built-in charts. */
  DASHBOARD_BI_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** Prometheus metrics at GET /metrics, behind METRICS_TOKEN; off (404) unless true. */
  METRICS_ENABLED: booleano(false),
  /** The bearer token Prometheus sends for /metrics; required when METRICS_ENABLED is true. */
  METRICS_TOKEN: z.string().min(32, { error: 'must have at least 32 characters' }).optional(),
  /**
   * An OTLP/HTTP collector: traces from trigger to delivery go to `<it>/v1/traces`. No trace
   * is recorded (and the OpenTelemetry SDK is not even loaded) when neither endpoint is set.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .optional(),
  /** The traces' own URL, used as it is (the collector's path included). */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .optional(),
  /** OTLP over HTTP, as protobuf (the standard's default) or JSON; gRPC is not offered. */
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(['http/protobuf', 'http/json'], { error: 'must be http/protobuf or http/json' })
    .default('http/protobuf'),
  /** The service name traces carry. */
  OTEL_SERVICE_NAME: z.string().min(1).default('locadora-sino'),
  /** The standard switch that turns tracing off whatever the endpoints say. */
  OTEL_SDK_DISABLED: booleano(false),
});

/** The settings a process of a scaled-out installation must share with the others. */
const SEGREDOS_DA_LOCADORA = ['JWT_SECRET', 'SINO_API_KEY'] as const;
const SEGREDOS_DO_SINO = ['SINO_WIDGET_JWT_SECRET', 'SINO_ENCRYPTION_KEY'] as const;

/**
 * Secrets of the console's sign-in providers: optional, never logged (the logger censors
 * `clientSecret` wherever it appears) nor quoted in a configuration error.
 */
export const SEGREDOS_DOS_PROVEDORES_DE_ACESSO = [
  'SINO_GITHUB_CLIENT_SECRET',
  'SINO_GOOGLE_CLIENT_SECRET',
] as const;

/** Each sign-in provider's client id and secret: one without the other is a mistake. */
const PROVEDORES_DE_ACESSO = [
  ['SINO_GITHUB_CLIENT_ID', 'SINO_GITHUB_CLIENT_SECRET'],
  ['SINO_GOOGLE_CLIENT_ID', 'SINO_GOOGLE_CLIENT_SECRET'],
] as const;

/** Each list of previous keys and the current key it goes with. */
const ROTACOES = [
  ['JWT_SECRETS_PREVIOUS', 'JWT_SECRET'],
  ['SINO_WIDGET_JWT_SECRETS_PREVIOUS', 'SINO_WIDGET_JWT_SECRET'],
  ['SINO_ENCRYPTION_KEYS_PREVIOUS', 'SINO_ENCRYPTION_KEY'],
] as const;

/** The checks that read several settings together; `HALVES` comes out filled. */
const esquemaCompleto = esquemaDeConfiguracao
  .transform((c) => ({
    ...c,
    HALVES:
      c.HALVES ?? (c.SINO_URL ? ['locadora' as const] : ['locadora' as const, 'sino' as const]),
    PUBLIC_URL: c.PUBLIC_URL ?? `http://localhost:${c.PORT}`,
  }))
  .superRefine((c, ctx) => {
    const problema = (campo: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [campo], message });
    const locadora = c.HALVES.includes('locadora');
    const sino = c.HALVES.includes('sino');
    if (c.SINO_URL && sino)
      problema('HALVES', 'must not include sino when SINO_URL is set (Sino runs elsewhere)');
    if (c.SINO_URL && !locadora)
      problema('SINO_URL', "is Locadora's way to Sino: set it only where Locadora runs");
    if (c.SINO_URL && !c.SINO_API_KEY)
      problema('SINO_API_KEY', "is required with SINO_URL (Locadora's key of the remote Sino)");
    // Previous keys go beside an explicit current one: beside a generated one, nothing would
    // say which key is the new one. None of them is ever quoted back.
    for (const [anteriores, atual] of ROTACOES) {
      const lista = c[anteriores];
      if (!lista) continue;
      if (!c[atual])
        problema(
          anteriores,
          `needs ${atual} set: previous keys are kept beside an explicit current one`,
        );
      else if (lista.includes(c[atual]))
        problema(anteriores, `must not list the current key (${atual})`);
    }
    // Sign-in with GitHub or Google: a client id and its secret together, and the public URL
    // the provider sends people back to.
    for (const [id, segredo] of PROVEDORES_DE_ACESSO) {
      if (c[id] && !c[segredo]) problema(segredo, `is required with ${id}`);
      if (c[segredo] && !c[id]) problema(id, `is required with ${segredo}`);
      if (sino && c[id] && c[segredo] && !c.SINO_PUBLIC_URL)
        problema(
          'SINO_PUBLIC_URL',
          `is required with ${id}: the provider sends people back to <SINO_PUBLIC_URL>/v1/auth/.../callback`,
        );
    }
    // Processes of one installation share their secrets: each generating its own would sign
    // tokens the others refuse and seal credentials the others cannot open.
    if (c.ROLE !== 'all') {
      const exigidos = [
        ...(locadora ? SEGREDOS_DA_LOCADORA : []),
        ...(sino ? SEGREDOS_DO_SINO : []),
      ].filter((nome) => !c[nome]);
      for (const nome of new Set(exigidos))
        problema(
          nome,
          `is required when ROLE is ${c.ROLE}: every process of the installation must share it (only ROLE=all generates development secrets)`,
        );
      // A socket node hears the events of the other processes only through Redis.
      if (c.ROLE === 'ws' && sino && !c.REDIS_URL)
        problema(
          'REDIS_URL',
          'is required when ROLE is ws: socket events reach it from the other processes through Redis',
        );
    }
  });

export type Configuracao = z.output<typeof esquemaCompleto>;

export class ConfiguracaoInvalida extends Error {
  constructor(readonly problemas: string[]) {
    super(`Invalid configuration:\n${problemas.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfiguracaoInvalida';
  }
}

/** Reads the configuration; an empty string counts as unset. Throws one error listing every problem. */
export function lerConfiguracao(
  ambiente: Record<string, string | undefined> = process.env,
): Configuracao {
  const definidos = Object.fromEntries(
    Object.entries(ambiente).filter(([, v]) => v !== undefined && v !== ''),
  );
  const resultado = esquemaCompleto.safeParse(definidos);
  const problemas = resultado.success
    ? problemasEntreVariaveis(resultado.data)
    : resultado.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  if (!resultado.success || problemas.length > 0) throw new ConfiguracaoInvalida(problemas);
  return resultado.data;
}

/** What one variable asks of another. */
function problemasEntreVariaveis(config: Configuracao): string[] {
  const problemas: string[] = [];
  // Never open: metrics name routes, queues and providers, which is the operator's business.
  if (config.METRICS_ENABLED && !config.METRICS_TOKEN)
    problemas.push('METRICS_TOKEN: required when METRICS_ENABLED is true');
  return problemas;
}
