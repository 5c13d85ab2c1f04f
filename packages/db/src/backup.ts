import { spawn } from 'node:child_process';
import {
  createWriteStream,
  mkdirSync,
  existsSync,
  openAsBlob,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { PGlite } from '@electric-sql/pglite';
import { FolderInUseError, holdFolder } from './folder-lock.js';
import pg from 'pg';

/** The database a backup is taken from or restored into: PostgreSQL at `url`, else PGlite. */
export interface BackupTarget {
  url?: string | undefined;
  /** The PGlite folder (used when there is no `url`). */
  dataDir: string;
}

/** What a backup holds, or what a restore brought back: each schema's migrations applied. */
export interface BackupSummary {
  kind: 'postgres' | 'pglite';
  file: string;
  bytes: number;
  /** Schema name to migrations applied (`<schema>.__drizzle_migrations`). */
  migrations: Record<string, number>;
}

/** A backup or restore refused or failed, in words for the operator (no password in them). */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** The schemas of the product's two halves (their migrations table lives in each). */
const SCHEMAS = ['locadora', 'sino'] as const;

/**
 * Takes a backup of the database into `file` (which must not exist): on PostgreSQL a
 * `pg_dump` archive (custom format, consistent while the servers run), checked with
 * `pg_restore --list`; on PGlite the data folder as PGlite dumps it (a gzipped tar), taken only
 * while no server has it open, and checked by opening the copy in memory. Written to
 * `<file>.partial` first, so a failed backup never leaves a file that looks whole.
 */
export async function backUpDatabase(target: BackupTarget, file: string): Promise<BackupSummary> {
  if (existsSync(file)) throw new BackupError(`${file} already exists: choose another file name`);
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  try {
    const summary = target.url
      ? await dumpPostgres(target.url, partial)
      : await dumpPglite(target.dataDir, partial);
    renameSync(partial, file);
    return { ...summary, file, bytes: statSync(file).size };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/**
 * Restores `file` into an empty database: on PostgreSQL one with neither of the product's
 * schemas (a new database, `createdb`), with `pg_restore` in one transaction (all or nothing),
 * objects owned by the restoring user; on PGlite a folder that does not exist or is empty.
 * The kind of the file must match the target's.
 */
export async function restoreDatabase(target: BackupTarget, file: string): Promise<BackupSummary> {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  const kind = await kindOfFile(file);
  const wanted = target.url ? 'postgres' : 'pglite';
  if (kind !== wanted)
    throw new BackupError(
      kind === undefined
        ? `${file} is neither a PostgreSQL (pg_dump custom format) nor a PGlite backup`
        : `${file} is a ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} backup, and this installation uses ${wanted === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'PGlite (no DATABASE_URL)'}`,
    );
  const bytes = statSync(file).size;
  const migrations = target.url
    ? await restorePostgres(target.url, file)
    : await restorePglite(target.dataDir, file);
  return { kind, file, bytes, migrations };
}

async function kindOfFile(file: string): Promise<'postgres' | 'pglite' | undefined> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0);
    if (head.toString('latin1') === 'PGDMP') return 'postgres';
    if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
    return undefined;
  } finally {
    await handle.close();
  }
}

// ---- PGlite ----

/** The folder, held while a backup or a restore has it open (a server started meanwhile refuses to open it). */
async function holdFolderForBackup(dataDir: string) {
  try {
    return await holdFolder(dataDir);
  } catch (error) {
    if (error instanceof FolderInUseError)
      throw new BackupError(`${error.message.replace(/^the embedded database/, 'the database')}`);
    throw error;
  }
}

function checkPgliteFolder(dataDir: string): void {
  if (!existsSync(join(dataDir, 'PG_VERSION')))
    throw new BackupError(
      `${dataDir} holds no database (no PG_VERSION): check DATA_DIR or PGLITE_DIR`,
    );
  // PGlite writes it while a process has the folder open and removes it when it closes: no
  // process holds the folder now (checked before), so this one was not closed cleanly.
  if (existsSync(join(dataDir, 'postmaster.pid')))
    throw new BackupError(
      `${dataDir} was not closed cleanly (its server was killed): start the server and stop it once, so that it closes the database, then back it up`,
    );
}

async function migrationsOf(query: (sql: string) => Promise<{ rows: unknown[] }>) {
  const counts: Record<string, number> = {};
  const { rows } = await query(
    `select table_schema as schema from information_schema.tables where table_name = '__drizzle_migrations' and table_schema in (${SCHEMAS.map((s) => `'${s}'`).join(', ')}) order by 1`,
  );
  for (const { schema } of rows as { schema: string }[]) {
    const result = await query(`select count(*)::int as n from "${schema}".__drizzle_migrations`);
    counts[schema] = (result.rows[0] as { n: number }).n;
  }
  return counts;
}

async function dumpPglite(dataDir: string, partial: string) {
  if (dataDir.startsWith('memory://'))
    throw new BackupError(
      'the database is in memory (PGLITE_DIR=memory://): there is nothing to back up',
    );
  // Held first: a running server is named as such, and none can start during the copy.
  const release = await holdFolderForBackup(dataDir);
  let archive: Blob;
  let migrations: Record<string, number>;
  try {
    checkPgliteFolder(dataDir);
    const client = await PGlite.create(dataDir);
    try {
      migrations = await migrationsOf((sql) => client.query(sql));
      archive = await client.dumpDataDir('gzip');
    } finally {
      await client.close();
    }
  } finally {
    await release();
  }
  await pipeline(
    Readable.fromWeb(archive.stream() as unknown as WebReadableStream),
    createWriteStream(partial, { flags: 'wx' }),
  );
  // Opened again from the file, in memory: the copy is whole and holds the same migrations.
  const copy = await PGlite.create({ loadDataDir: await openAsBlob(partial) });
  try {
    const copied = await migrationsOf((sql) => copy.query(sql));
    if (JSON.stringify(copied) !== JSON.stringify(migrations))
      throw new BackupError('the backup, opened again, does not hold what the database holds');
  } finally {
    await copy.close();
  }
  return { kind: 'pglite' as const, migrations };
}

async function restorePglite(dataDir: string, file: string) {
  if (dataDir.startsWith('memory://'))
    throw new BackupError('PGLITE_DIR=memory:// keeps nothing: restore into a folder');
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0)
    throw new BackupError(
      `${dataDir} is not empty: restore into a new folder (move the old one aside first)`,
    );
  mkdirSync(dataDir, { recursive: true });
  const release = await holdFolderForBackup(dataDir);
  try {
    const client = await PGlite.create({ dataDir, loadDataDir: await openAsBlob(file) });
    try {
      return await migrationsOf((sql) => client.query(sql));
    } finally {
      await client.close();
    }
  } catch (error) {
    // The folder was empty: nothing half restored stays behind to be started on.
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    await release();
  }
}

// ---- PostgreSQL ----

/** The URL without its password, which goes to the tools through PGPASSWORD (not `ps`). */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv; where: string } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: { ...process.env, ...(password && { PGPASSWORD: password }) },
    where: `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`,
  };
}

/** Runs a PostgreSQL client tool; its error output, which holds no password, explains a failure. */
function run(tool: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === 'ENOENT'
            ? `${tool} was not found: install PostgreSQL's client tools, of the server's major version or newer (e.g. apt-get install postgresql-client)`
            : `${tool} could not start: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(new BackupError(`${tool} failed (exit ${code}): ${err.trim()}`)),
    );
  });
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(
      `cannot connect to ${connection(url).where}: ${(error as Error).message}`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

async function dumpPostgres(url: string, partial: string) {
  const { dbname, env } = connection(url);
  const migrations = await withClient(url, (client) => migrationsOf((sql) => client.query(sql)));
  await run('pg_dump', ['--format=custom', `--file=${partial}`, `--dbname=${dbname}`], env);
  // The archive reads back, and holds both halves' schemas the database has.
  const list = await run('pg_restore', ['--list', partial], env);
  for (const schema of Object.keys(migrations))
    if (!new RegExp(`^\\d+; \\d+ \\d+ SCHEMA - ${schema} `, 'm').test(list))
      throw new BackupError(`the archive lists no schema ${schema}`);
  return { kind: 'postgres' as const, migrations };
}

async function restorePostgres(url: string, file: string) {
  const { dbname, env, where } = connection(url);
  const taken = await withClient(url, async (client) => {
    const { rows } = await client.query<{ schema: string }>(
      `select schema_name as schema from information_schema.schemata where schema_name = any($1) order by 1`,
      [SCHEMAS],
    );
    return rows.map((r) => r.schema);
  });
  if (taken.length > 0)
    throw new BackupError(
      `the database ${where} already has the schema${taken.length > 1 ? 's' : ''} ${taken.join(' and ')}: restore into a new, empty database (createdb), then point DATABASE_URL at it`,
    );
  await run(
    'pg_restore',
    [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${dbname}`,
      file,
    ],
    env,
  );
  return withClient(url, (client) => migrationsOf((sql) => client.query(sql)));
}
