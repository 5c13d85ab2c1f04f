import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { openDatabase } from '@locadora/db';
import { sinoCore, sinoMigrations, type DevelopmentCredentials } from '@sino/core';

/** The package folder: where `openapi.json` and `src/schema.d.ts` are committed. */
export const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** The generated files, relative to the package folder. */
export const generatedFiles = {
  document: 'openapi.json',
  types: join('src', 'schema.d.ts'),
} as const;

export interface SinoServer {
  app: FastifyInstance;
  /** The development organization, environment and API key of the first start. */
  credentials: DevelopmentCredentials;
  close(): Promise<void>;
}

/**
 * Sino alone, as `apps/server` registers it (OpenAPI 3.1 through @fastify/swagger with the zod
 * type provider's transform), on an in-memory PGlite. No queue workers unless asked for: the
 * document needs the routes only.
 */
export async function buildSinoServer(options: { runWorkers?: boolean } = {}): Promise<SinoServer> {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await database.migrate([sinoMigrations]);
    const app = Fastify({ logger: false });
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Sino server API',
          version: '1.0.0',
          description:
            "Sino's server API (wire-compatible with Novu 0.24). Every route needs `Authorization: ApiKey <key>`. Errors answer `{statusCode, message, error}`.",
        },
        components: {
          securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } },
        },
        security: [{ apiKey: [] }],
      },
      transform: jsonSchemaTransform,
      // Schemas registered with an id (the trigger's overrides) become shared components.
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(sinoCore, {
      db: database.db,
      database,
      runWorkers: options.runWorkers ?? false,
      queuePollingIntervalMs: 50,
      // Throw-away secrets of a throw-away database.
      widgetTokenSecret: 'sino-client-generator-widget-secret-0123456789',
      encryptionKey: 'sino-client-generator-encryption-key-0123456789',
    });
    await app.ready();
    const credentials = await app.sino.identity.bootstrapDevelopment('Sino client');
    if (!credentials) throw new Error('bootstrap created nothing on a fresh database');
    return {
      app,
      credentials,
      async close() {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** The server API: Sino's `/v1` routes but the widget's (`/v1/widgets/...`). */
export const isServerApiPath = (path: string): boolean =>
  path.startsWith('/v1/') && !/^\/v1\/widgets(\/|$)/.test(path);

/** Object keys sorted at every depth (arrays keep their order): a diff shows real changes only. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/** Sino's OpenAPI document, reduced to the server API, with a stable key order. */
export function serverApiDocument(full: OpenAPI3): OpenAPI3 {
  const paths = Object.fromEntries(
    Object.entries(full.paths ?? {}).filter(([path]) => isServerApiPath(path)),
  );
  if (Object.keys(paths).length === 0) throw new Error('Sino registered no server API route');
  return sortKeys({ ...full, paths }) as OpenAPI3;
}

const typesHeader = `${COMMENT_HEADER.trimEnd()}
// Generated from packages/sino-client/openapi.json, itself generated from Sino's routes.
// Regenerate with \`npm run sino:client\`.

`;

/**
 * The contents of both generated files, exactly as they are written, from a Sino built for the
 * purpose or from one already running (tests).
 */
export async function generate(
  from?: FastifyInstance,
): Promise<{ document: string; types: string }> {
  let full: OpenAPI3;
  if (from) {
    full = from.swagger() as OpenAPI3;
  } else {
    const sino = await buildSinoServer();
    try {
      full = sino.app.swagger() as OpenAPI3;
    } finally {
      await sino.close();
    }
  }
  const document = serverApiDocument(full);
  // `silent`: the document's checks (redocly's) would only print; the typecheck is the judge.
  const ast = await openapiTS(document, { silent: true });
  return {
    document: `${JSON.stringify(document, null, 2)}\n`,
    types: typesHeader + astToString(ast),
  };
}

/** Writes both generated files under `dir` (the package folder by default). */
export async function writeGeneratedFiles(
  dir = packageDir,
  from?: FastifyInstance,
): Promise<string[]> {
  const contents = await generate(from);
  const written: string[] = [];
  for (const key of ['document', 'types'] as const) {
    const path = join(dir, generatedFiles[key]);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, contents[key]);
    written.push(path);
  }
  return written;
}
