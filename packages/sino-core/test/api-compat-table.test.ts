import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { Novu } from '@novu/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { sinoCore, sinoMigrations } from '../src/index.js';

/**
 * `docs/api-compat.md`'s tables of Novu 0.24's routes and their state here, kept true: every
 * row that says Sino has a route names one Sino has, every row that says it has not names one
 * it has not, and every route of Sino's server API (`packages/sino-client/openapi.json`) and
 * widget API (the `/v1/widgets` routes Sino registers, which that document leaves out) has a
 * row. The `@novu/node` column names the client's methods, each of them.
 */

const repository = new URL('../../../', import.meta.url);
const TABLES_HEADING = "# Sino and Novu 0.24's server API";
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const ROUTE = /^`(GET|POST|PUT|PATCH|DELETE) (\/\S+)`$/;
/** Sino's own route in a "differs" row whose path is not Novu's: "at `POST /v1/...`". */
const SINO_ROUTE_AT = /\bat `(GET|POST|PUT|PATCH|DELETE) (\/v1\/[^`\s]+)`/g;
const STATES = {
  '**same**': 'same',
  '**same, differs in**: ': 'differs',
  '**Sino only**: ': 'sino-only',
  '**not here**: ': 'not-here',
} as const;
type State = (typeof STATES)[keyof typeof STATES];

interface Row {
  /** Line number in docs/api-compat.md, for the messages. */
  line: number;
  /** The route the row is about (Novu's, or Sino's in Sino's own table), as written. */
  route: string;
  state: State;
  /** The routes Sino answers it with (none for "not here"). */
  here: string[];
  /** The `@novu/node` methods the row names. */
  clients: string[];
}

/**
 * A route's key: method and path with every parameter as `{}`, so Novu's `:templateId`,
 * Fastify's `:workflowId` and OpenAPI's `{workflowId}` in the same place are one route.
 */
const key = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/:[A-Za-z0-9_]+|\{[^}]+\}/g, '{}')}`;

/** The rows of the tables under TABLES_HEADING, and what in them cannot be read. */
function parseTables(markdown: string): { rows: Row[]; problems: string[] } {
  const lines = markdown.split('\n');
  const start = lines.indexOf(TABLES_HEADING);
  if (start < 0) return { rows: [], problems: [`no "${TABLES_HEADING}" heading`] };
  const rows: Row[] = [];
  const problems: string[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const text = lines[i]!.trim();
    if (!text.startsWith('|')) continue;
    const cells = text
      .slice(1, text.endsWith('|') ? -1 : undefined)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    const line = i + 1;
    const first = cells[0] ?? '';
    // A header row or its separator.
    if (/^(Novu 0\.24 route|Sino route)$/.test(first) || /^:?-+:?$/.test(first)) continue;
    const route = ROUTE.exec(first);
    if (!route) {
      problems.push(`line ${line}: the first cell is not one route in backticks: ${first}`);
      continue;
    }
    if (cells[1] !== 'yes' && cells[1] !== 'no')
      problems.push(`line ${line}: "API key?" is neither yes nor no: ${cells[1]}`);
    const last = cells[cells.length - 1] ?? '';
    const prefix = Object.keys(STATES).find((p) =>
      p === '**same**' ? last === p : last.startsWith(p) && last.length > p.length,
    ) as keyof typeof STATES | undefined;
    if (!prefix) {
      problems.push(
        `line ${line}: no state (same, same differs in: ..., Sino only: ..., not here: ...)`,
      );
      continue;
    }
    const state = STATES[prefix];
    const written = key(route[1]!, route[2]!);
    const at = [...last.matchAll(SINO_ROUTE_AT)].map((m) => key(m[1]!, m[2]!));
    const here = state === 'not-here' ? [] : state === 'differs' && at.length > 0 ? at : [written];
    const clients =
      cells.length === 4 ? [...cells[2]!.matchAll(/`(\w+\.\w+)`/g)].map((m) => m[1]!) : [];
    rows.push({ line, route: written, state, here, clients });
  }
  return { rows, problems };
}

/** `METHOD /path` keys of the server API's OpenAPI document. */
function openApiRoutes(): Set<string> {
  const document = JSON.parse(
    readFileSync(new URL('packages/sino-client/openapi.json', repository), 'utf8'),
  ) as { paths: Record<string, Record<string, unknown>> };
  const routes = new Set<string>();
  for (const [path, item] of Object.entries(document.paths))
    for (const method of Object.keys(item))
      if ((METHODS as readonly string[]).includes(method.toUpperCase()))
        routes.add(key(method, path));
  return routes;
}

/** The client's methods, as `resource.method` (`subscribers.identify`). */
function novuNodeMethods(): string[] {
  // No request is made: the client is only looked at.
  const novu = new Novu('not-a-key', { backendUrl: 'http://127.0.0.1:9' });
  const methods: string[] = [];
  for (const [name, resource] of Object.entries(novu as unknown as Record<string, unknown>)) {
    if (name === 'http' || resource === null || typeof resource !== 'object') continue;
    if (!('http' in resource)) continue;
    const proto = Object.getPrototypeOf(resource) as Record<string, unknown>;
    for (const method of Object.getOwnPropertyNames(proto))
      if (method !== 'constructor' && typeof proto[method] === 'function')
        methods.push(`${name}.${method}`);
  }
  return methods.sort();
}

let rows: Row[];
let problems: string[];
/** Every route Sino has: the server API's document and the widget routes it registers. */
const sino = new Set<string>();
let app: FastifyInstance;
let database: DatabaseHandle;

beforeAll(async () => {
  ({ rows, problems } = parseTables(
    readFileSync(new URL('docs/api-compat.md', repository), 'utf8'),
  ));
  for (const route of openApiRoutes()) sino.add(route);
  // Sino as apps/server registers it, on an in-memory PGlite (routes do not depend on the
  // store), to list the widget's routes as they are registered.
  database = await openDatabase({ dataDir: 'memory://' });
  await database.migrate([sinoMigrations]);
  app = Fastify({ logger: false });
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/widgets')) return;
    for (const method of [route.method].flat())
      if ((METHODS as readonly string[]).includes(method)) sino.add(key(method, route.url));
  });
  await app.register(sinoCore, {
    db: database.db,
    database,
    runWorkers: false,
    // Throw-away secrets of a throw-away database.
    widgetTokenSecret: 'api-compat-table-widget-secret-0123456789',
    encryptionKey: 'api-compat-table-encryption-key-0123456789',
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe("docs/api-compat.md's tables of Novu 0.24's routes", () => {
  it('are read whole: every row names one route and its state, each route once', () => {
    expect(problems).toEqual([]);
    expect(rows.length).toBeGreaterThan(150);
    const seen = new Map<string, number>();
    const twice: string[] = [];
    for (const row of rows) {
      const earlier = seen.get(row.route);
      if (earlier) twice.push(`${row.route} (lines ${earlier} and ${row.line})`);
      seen.set(row.route, row.line);
    }
    expect(twice, 'routes with more than one row').toEqual([]);
  });

  it('name a route Sino has wherever they say same, differs or Sino only', () => {
    expect(sino.size).toBeGreaterThan(100);
    const missing = rows.flatMap((row) =>
      row.here.filter((r) => !sino.has(r)).map((r) => `line ${row.line}: ${r} (${row.state})`),
    );
    expect(missing, 'rows naming a route that is not in openapi.json nor the widget API').toEqual(
      [],
    );
  });

  it('name a route Sino lacks wherever they say not here', () => {
    const present = rows
      .filter((row) => row.state === 'not-here' && sino.has(row.route))
      .map((row) => `line ${row.line}: ${row.route}`);
    expect(present, '"not here" rows whose route Sino now has: say how it answers').toEqual([]);
  });

  it("hold every route of Sino's server API (openapi.json) and widget API", () => {
    const named = new Set(rows.flatMap((row) => row.here));
    const absent = [...sino].filter((route) => !named.has(route)).sort();
    expect(absent, "Sino's routes without a row in docs/api-compat.md").toEqual([]);
  });

  it("name each of @novu/node@0.24.2's methods, and only them", () => {
    const methods = novuNodeMethods();
    expect(methods).toHaveLength(97);
    const named = new Set(rows.flatMap((row) => row.clients));
    expect(
      methods.filter((m) => !named.has(m)),
      'client methods in no row',
    ).toEqual([]);
    expect(
      [...named].filter((m) => !methods.includes(m)).sort(),
      'rows naming a method the client has not',
    ).toEqual([]);
  });
});
