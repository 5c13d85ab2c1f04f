// @module-tag one-process: a body the node refuses unread (413, connection closed) reaches the client as the balancer's 502 or a reset, and with the halves apart /docs/json is Locadora's alone (TEST_TOPOLOGY, decision 041)
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';

/**
 * Malformed requests to every operation of both OpenAPI documents (the whole server's
 * `/docs/json`, and Sino's own server-API document, which is a part of it), with real
 * credentials so that each request reaches the route's own code: NUL characters, unpaired
 * surrogates, values nested far too deep, huge strings and numbers, wrong types, broken JSON.
 * Any 5xx fails. Seeded and bounded, so a run is repeatable; `FUZZ_SEED` and `FUZZ_RUNS`
 * explore further by hand.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 100);

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
};

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: Schema | undefined;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: unknown }>>;
  components?: { schemas?: Record<string, Schema> };
}

function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const body = (
        operation.requestBody as
          { content?: Record<string, { schema?: Schema } | undefined> } | undefined
      )?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        body,
      });
    }
  }
  return operations;
}

const key = (o: { method: string; path: string }) => `${o.method} ${o.path}`;

// ---- hostile values -------------------------------------------------------------------------

const nested = (levels: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < levels; i += 1) value = i % 2 ? { a: value } : [value];
  return value;
};

const hostileText = fc.constantFrom(
  'a\u0000b',
  '\u0000',
  '%00',
  '\uD800',
  'x\uDFFFy',
  '\uDBFF\uD800',
  '😀\u0000',
  '',
  ' ',
  '\u202E\u200B',
  "'; drop table usuarios; --",
  '../../../etc/passwd',
  '{{payload.__proto__}}',
  '__proto__',
  'x'.repeat(100_000),
  '9'.repeat(400),
  '-1',
  '1e309',
  'NaN',
  'null',
  '2026-02-30T25:61:00Z',
);

/** Text the database cannot store: it must be refused as bad input wherever it is sent. */
const unstorableText = fc.constantFrom('a\u0000b', '\u0000', '😀\u0000', '\uD800', 'x\uDFFFy');

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  unstorableText,
  hostileText,
  fc.constantFrom(
    0,
    -1,
    -0,
    1.5,
    2 ** 53 + 2,
    -(2 ** 63),
    1e308,
    -1e308,
    null,
    true,
    [],
    {},
    { __proto__: { admin: true } },
    { constructor: { prototype: { admin: true } } },
    ['a\u0000b'],
    { 'chave\u0000': 1 },
    { '\uD800': 'x' },
  ),
  fc.constantFrom(40, 200).map((levels) => nested(levels, 'x')),
  fc.array(fc.string({ unit: 'binary' }), { maxLength: 3 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.double(),
);

// ---- values shaped by the schema, with hostile ones mixed in --------------------------------

function resolve(schema: Schema, components: Record<string, Schema>): Schema {
  let current = schema;
  for (let i = 0; current.$ref && i < 10; i += 1) {
    current = components[current.$ref.split('/').at(-1)!] ?? {};
  }
  return current;
}

function valueFor(
  schema: Schema,
  components: Record<string, Schema>,
  depth = 0,
): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 5, arbitrary: shapedBy(resolve(schema, components), components, depth) },
    { weight: 1, arbitrary: hostileValue },
  );
}

function shapedBy(
  schema: Schema,
  components: Record<string, Schema>,
  depth: number,
): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices?.length) return fc.oneof(...choices.map((c) => valueFor(c, components, depth + 1)));
  if (schema.allOf?.length) return valueFor(schema.allOf[0]!, components, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.constantFrom('2026-12-01', '2026-12-01T10:00:00.000Z', 'a@b.dev', '1', 'cliente-1'),
        unstorableText,
        hostileText,
      );
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1000, -(2 ** 31)),
        max: Math.min(schema.maximum ?? 1000, 2 ** 31),
      });
    case 'number':
      return fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.double({ noNaN: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, components, depth + 1), { maxLength: 3 });
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0) {
        return fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 3 });
      }
      const required = new Set(schema.required ?? []);
      return fc.record(
        Object.fromEntries(
          properties.map(([name, s]) => [name, valueFor(s, components, depth + 1)]),
        ),
        { requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)) },
      );
    }
    default:
      return hostileValue;
  }
}

// ---- requests -------------------------------------------------------------------------------

/** Percent-encodes like a client would, unpaired surrogates included (as their WTF-8 bytes). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    let out = '';
    for (const char of text) {
      const code = char.codePointAt(0)!;
      if (code >= 0xd800 && code <= 0xdfff) {
        out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      } else out += encodeURIComponent(char);
    }
    return out;
  }
}

const asText = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value ?? null);

/** Raw bodies no JSON encoder would write. */
const brokenBody = fc.constantFrom(
  '{"a":',
  '['.repeat(100_000),
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '\u0000',
  'null',
  '"texto"',
  '{"__proto__":{"admin":true}}',
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString('latin1'),
);

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

function requestsFor(
  operation: Operation,
  components: Record<string, Schema>,
  authorization: fc.Arbitrary<Record<string, string>>,
): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  const pathValues = fc.record(
    Object.fromEntries(
      pathParameters.map((p) => [
        p.name,
        fc.oneof(
          hostileText,
          fc.constantFrom(
            '1',
            '2',
            'cliente-1',
            'reserva-confirmada',
            '00000000-0000-0000-0000-000000000000',
          ),
          fc.string({ unit: 'binary', maxLength: 12 }),
        ),
      ]),
    ),
  );
  const queryValues = fc.array(
    fc.tuple(
      queryParameters.length
        ? fc.oneof(fc.constantFrom(...queryParameters.map((p) => p.name)), fc.constant('extra'))
        : fc.constant('extra'),
      fc.oneof(
        hostileText,
        fc.string({ maxLength: 10 }),
        fc.constantFrom('1', '0', 'true', '2026-12-01'),
      ),
    ),
    { maxLength: 4 },
  );
  const body = operation.body
    ? fc.oneof(
        {
          weight: 8,
          arbitrary: valueFor(operation.body, components).map((v) => JSON.stringify(v ?? null)),
        },
        { weight: 2, arbitrary: brokenBody },
      )
    : fc.option(
        fc.oneof(
          hostileValue.map((v) => JSON.stringify(v ?? null)),
          brokenBody,
        ),
        { nil: undefined },
      );

  return fc
    .record({ path: pathValues, query: queryValues, body, authorization })
    .map(({ path, query, body: payload, authorization: auth }) => {
      const filled = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
        encode(asText(path[name])),
      );
      const search = query.map(([k, v]) => `${encode(k)}=${encode(asText(v))}`).join('&');
      return {
        method: operation.method,
        url: search ? `${filled}?${search}` : filled,
        headers: { ...auth, ...(payload !== undefined && { 'content-type': 'application/json' }) },
        ...(payload !== undefined && { payload }),
      };
    });
}

// ---- the run --------------------------------------------------------------------------------

let t: AppDeTeste;
let document: OpenApiDocument;
let credentials: {
  locadora: string[];
  sinoApiKey: string;
  widget: string;
};

beforeAll(async () => {
  // No rate limit in the way: every request should reach its route.
  t = await criarAppDeTeste({
    ambiente: { SINO_RATE_LIMIT_GENERAL: '100000', SINO_RATE_LIMIT_TRIGGERS: '100000' },
  });
  document = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<OpenApiDocument>();
  const subscriberId = 'fuzz-assinante';
  const session = await t.app.inject({
    method: 'POST',
    url: '/v1/widgets/session/initialize',
    payload: {
      applicationIdentifier: t.sino.applicationIdentifier,
      subscriberId,
      hmacHash: createHmac('sha256', t.sino.apiKey).update(subscriberId).digest('hex'),
    },
  });
  expect(session.statusCode).toBe(201);
  const cliente = await t.novoCliente();
  credentials = {
    locadora: [await t.tokenDe('admin'), await t.tokenDe('funcionario'), cliente.token],
    sinoApiKey: t.sino.apiKey,
    widget: session.json<{ data: { token: string } }>().data.token,
  };
}, 120_000);

afterAll(async () => {
  await t?.fechar();
});

describe('malformed requests to every operation', () => {
  it('covers every operation of both OpenAPI documents', () => {
    const sinoDocument = JSON.parse(
      readFileSync(
        new URL('../../../../packages/sino-client/openapi.json', import.meta.url),
        'utf8',
      ),
    ) as OpenApiDocument;
    const all = new Set(operationsOf(document).map(key));
    expect(all.size).toBeGreaterThanOrEqual(140);
    expect(
      operationsOf(sinoDocument)
        .map(key)
        .filter((k) => !all.has(k)),
    ).toEqual([]);
  });

  it('never answers 5xx', async () => {
    const components = document.components?.schemas ?? {};
    const failures: string[] = [];
    // FUZZ_ONLY (a regular expression on "METHOD /path") narrows a run down by hand.
    const only = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;
    const operations = operationsOf(document).filter((o) => !only || only.test(key(o)));
    for (const [index, operation] of operations.entries()) {
      const authorization: fc.Arbitrary<Record<string, string>> = operation.path.startsWith(
        '/v1/widgets',
      )
        ? fc.constant({ authorization: `Bearer ${credentials.widget}` })
        : operation.path.startsWith('/v1/')
          ? fc.constant({ authorization: `ApiKey ${credentials.sinoApiKey}` })
          : fc.constantFrom(
              ...credentials.locadora.map((token) => ({ authorization: `Bearer ${token}` })),
            );
      if (process.env.FUZZ_VERBOSE) console.log(key(operation));
      const result = await fc.check(
        fc.asyncProperty(requestsFor(operation, components, authorization), async (request) => {
          // A request the server never answers is as much a failure as a 5xx.
          const response = await Promise.race([
            t.app.inject(request),
            new Promise<never>((_, reject) =>
              setTimeout(() => reject(new Error('no answer within 10 s')), 10_000).unref(),
            ),
          ]);
          if (response.statusCode >= 500) {
            throw new Error(`${response.statusCode} ${response.body.slice(0, 300)}`);
          }
        }),
        { seed: SEED + index, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
      if (result.failed) {
        const [request] = result.counterexample ?? [];
        const shown = JSON.stringify(request, (_, v: unknown) =>
          typeof v === 'string' && v.length > 200 ? `${v.slice(0, 60)}…(${v.length} chars)` : v,
        );
        failures.push(`${key(operation)}: ${String(result.errorInstance)} ← ${shown}`);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
