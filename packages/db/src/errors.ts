import { PgPreparedQuery } from 'drizzle-orm/pg-core';

/**
 * A statement failed. Carries what code and an operator need (the SQLSTATE, and the names of
 * the constraint, table, column it is about) and nothing of the data: no SQL text, no
 * parameters, no `detail` (PostgreSQL's `Key (email)=(a@b.c) already exists.`, or the whole
 * failing row). Drizzle's own error puts the SQL and every parameter (a password hash, a CPF)
 * in its message, and PGlite's carries them as fields: whatever logs or answers this one
 * cannot leak them.
 */
export class QueryError extends Error {
  override readonly name = 'QueryError';
  /** The SQLSTATE (`23505`...), or the driver's code for a failure to reach the server. */
  readonly code: string | undefined;
  /** `ERROR`, `FATAL`...: set only when the database server itself refused the statement. */
  readonly severity: string | undefined;
  readonly schema: string | undefined;
  readonly table: string | undefined;
  readonly column: string | undefined;
  readonly dataType: string | undefined;
  readonly constraint: string | undefined;

  constructor(
    message: string,
    fields: Partial<Pick<QueryError, 'code' | 'severity' | NameField>>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = fields.code;
    this.severity = fields.severity;
    this.schema = fields.schema;
    this.table = fields.table;
    this.column = fields.column;
    this.dataType = fields.dataType;
    this.constraint = fields.constraint;
  }
}

type NameField = 'schema' | 'table' | 'column' | 'dataType' | 'constraint';
const NAME_FIELDS: NameField[] = ['schema', 'table', 'column', 'dataType', 'constraint'];

/**
 * SQLSTATE classes whose primary message names objects only, never values: connection (08),
 * cardinality (21), integrity constraints (23: `duplicate key value violates unique constraint
 * "x"`; the values are in `detail`), transaction state (25), authorization (28, 3D),
 * rollbacks (40), syntax and access (42), resources (53), prerequisite state (55), operator
 * intervention (57). Others quote input (22: `invalid input syntax for type integer: "abc"`),
 * SQL text (42601: `syntax error at or near ...`) or a function's own words (P0): those are
 * told by their class instead.
 */
const CLASSES_WITHOUT_VALUES = new Set('08 21 23 25 28 3D 40 42 53 55 57'.split(' '));
const MESSAGES_WITH_VALUES = new Set(['42601']);
const CLASS_NAMES: Record<string, string> = {
  '0A': 'feature not supported',
  '22': 'data exception (a value the column or function cannot take)',
  '42': 'syntax error',
  P0: 'error raised by a database function',
  XX: 'internal error of the database',
};

interface DriverError {
  message?: unknown;
  code?: unknown;
  severity?: unknown;
  cause?: unknown;
  query?: unknown;
  params?: unknown;
}

const asObject = (value: unknown): DriverError | undefined =>
  value && typeof value === 'object' ? (value as DriverError) : undefined;

/** An error the database server answered: it has a SQLSTATE and a severity. */
function serverError(error: unknown): (DriverError & Record<string, unknown>) | undefined {
  const e = asObject(error);
  return e &&
    typeof e.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(e.code) &&
    typeof e.severity === 'string'
    ? (e as DriverError & Record<string, unknown>)
    : undefined;
}

/** Drizzle's wrapper (`Failed query: <sql>\nparams: <values>`) around the driver's error. */
const isDrizzleWrapper = (error: unknown): boolean => {
  const e = asObject(error);
  return (
    !!e && typeof e.message === 'string' && e.message.startsWith('Failed query:') && 'params' in e
  );
};

/** True when `error` may carry SQL text, parameters or row values (see `QueryError`). */
export function isRawQueryFailure(error: unknown): boolean {
  if (error instanceof QueryError) return false;
  const e = asObject(error);
  // PGlite adds the statement and its values to its own errors.
  return !!e && (isDrizzleWrapper(e) || !!serverError(e) || ('query' in e && 'params' in e));
}

/**
 * The failure of a statement as a `QueryError` (see there). A failure to reach the server
 * (refused, timed out, closed) holds no data: it stays the cause, so that start-up can say
 * what went wrong with the connection.
 */
export function toQueryError(error: unknown): QueryError {
  if (error instanceof QueryError) return error;
  const driver = isDrizzleWrapper(error) ? asObject(error)!.cause : error;
  const server = serverError(driver);
  let result: QueryError;
  if (server) {
    const code = server.code as string;
    const fields: Partial<Record<NameField, string>> = {};
    for (const name of NAME_FIELDS)
      if (typeof server[name] === 'string' && server[name]) fields[name] = server[name] as string;
    const said =
      CLASSES_WITHOUT_VALUES.has(code.slice(0, 2)) &&
      !MESSAGES_WITH_VALUES.has(code) &&
      typeof server.message === 'string'
        ? server.message
        : (CLASS_NAMES[code.slice(0, 2)] ?? 'the database refused the statement');
    const about = NAME_FIELDS.filter((n) => fields[n]).map((n) => `${n} ${fields[n]}`);
    result = new QueryError(
      `Query failed (SQLSTATE ${code}${about.length ? `; ${about.join(', ')}` : ''}): ${said}`,
      { code, severity: server.severity as string, ...fields },
    );
  } else {
    const cause = asObject(driver);
    const reason =
      typeof cause?.message === 'string' && cause.message ? cause.message : 'unknown reason';
    const code = typeof cause?.code === 'string' ? cause.code : undefined;
    result = new QueryError(
      `Query failed: ${reason}`,
      { code },
      // A raw error that is not the server's but still carries the statement is not kept.
      { cause: cause && !('query' in cause) && !('params' in cause) ? driver : undefined },
    );
  }
  // The original's call frames (no data in them) say where the statement came from.
  const frames = framesOf(error);
  if (frames) result.stack = `${result.name}: ${result.message}\n${frames}`;
  return result;
}

/** Only the `    at ...` lines of an error's stack: its first line repeats the message. */
function framesOf(error: unknown): string | undefined {
  const stack = asObject(error) && (error as { stack?: unknown }).stack;
  if (typeof stack !== 'string') return undefined;
  const message = String((error as { message?: unknown }).message ?? '');
  // Skip the header (`Name: message`, which may span lines) before looking for frames.
  const start = message ? stack.indexOf(message) : -1;
  const rest = start >= 0 ? stack.slice(start + message.length) : stack;
  const frames = rest.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length ? frames.join('\n') : undefined;
}

let installed = false;

/**
 * Makes every statement Drizzle runs on PostgreSQL fail with a `QueryError`. Drizzle wraps
 * each driver error in its own (`DrizzleQueryError`) in one method of the prepared query that
 * both drivers (and transactions, and `preparedSql`) go through, and offers no hook there:
 * that method is wrapped, once per process.
 */
export function reportQueryFailuresWithoutData(): void {
  if (installed) return;
  const prototype = PgPreparedQuery.prototype as unknown as {
    queryWithCache?: (...args: unknown[]) => Promise<unknown>;
  };
  const original = prototype.queryWithCache;
  // Fail loudly if a Drizzle upgrade moves it: errors would carry the parameters again.
  if (typeof original !== 'function')
    throw new Error(
      'drizzle-orm has no PgPreparedQuery.queryWithCache: update @locadora/db errors.ts',
    );
  prototype.queryWithCache = async function (this: unknown, ...args: unknown[]) {
    try {
      return await original.apply(this, args);
    } catch (error) {
      throw toQueryError(error);
    }
  };
  installed = true;
}

// PostgreSQL error codes (same on PGlite). A QueryError carries the code; a raw driver error
// may hold it on `cause`.
function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown): boolean => pgCode(error) === '23505';
/** A row still referenced (23503 foreign_key_violation, 23001 restrict_violation for ON DELETE RESTRICT). */
export const isForeignKeyViolation = (error: unknown): boolean => {
  const code = pgCode(error);
  return code === '23503' || code === '23001';
};

/**
 * SQLSTATEs of a server that cannot serve now, whatever the statement: connection exceptions
 * (08), insufficient resources (53: too many connections, disk full, out of memory), a
 * shutdown or a start under way (57P01-57P03), and a statement cancelled by
 * `statement_timeout` (57014: nothing else here cancels statements).
 */
const UNAVAILABLE_STATES = /^(08|53)|^57P0[123]$|^57014$/;
/** Socket failures on the way to the server. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres and its pool name these failures only in words. */
const UNAVAILABLE_MESSAGES =
  /^(Query failed: )?(Connection terminated( unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect|timeout expired|Query read timeout|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Cannot use a pool after calling end on the pool)$/;

/**
 * True when `error` says the database could not be reached or did not answer in time (refused,
 * reset, a connect or statement timeout, a server shutting down), as opposed to a statement it
 * refused: the request may succeed later, so the API answers 503 with `Retry-After`. Looks
 * through causes and an AggregateError's attempts (one per address of the host).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen: unknown[] = [error];
  for (let i = 0; i < seen.length && i < 20; i++) {
    const e = asObject(seen[i]);
    if (!e) continue;
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && typeof e.severity === 'string') {
      // The server answered: the SQLSTATE alone decides.
      if (UNAVAILABLE_STATES.test(code)) return true;
      continue;
    }
    if (code && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    if (e.cause !== undefined) seen.push(e.cause);
    if (seen[i] instanceof AggregateError) seen.push(...(seen[i] as AggregateError).errors);
  }
  return false;
}

// What an error may show in a log line besides its type, message and frames.
const LOGGED_FIELDS = [
  'code',
  'statusCode',
  'severity',
  ...NAME_FIELDS,
  'errno',
  'syscall',
  'address',
  'port',
  'hostname',
] as const;

/** An error as a log line shows it. */
export interface LoggedError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

/**
 * pino's `err` serializer for every app: an error as a log line may show it, by allow-list.
 * Raw query failures become `QueryError`s first (no SQL, parameters or values); the stack is
 * rebuilt from the safe message and the call frames; causes and an AggregateError's errors
 * are serialized the same way. Other fields (a driver's `detail`, `query`, `params`, a
 * library's request options) never reach the log.
 */
export function errorForLog(error: unknown): LoggedError {
  return serialize(error, 0);
}

function serialize(error: unknown, depth: number): LoggedError {
  if (!error || typeof error !== 'object') {
    const message = String(error);
    return { type: typeof error, message, stack: message };
  }
  if (depth > 5) return { type: 'Error', message: '(cause chain too deep)', stack: '' };
  const safe = (isRawQueryFailure(error) ? toQueryError(error) : error) as Record<string, unknown>;
  const type = safe instanceof Error ? safe.constructor.name : 'Object';
  const message = typeof safe.message === 'string' ? safe.message : '';
  const frames = framesOf(safe);
  const out: LoggedError = {
    type,
    message,
    stack: `${typeof safe.name === 'string' ? safe.name : type}: ${message}${frames ? `\n${frames}` : ''}`,
  };
  for (const field of LOGGED_FIELDS) {
    const value = safe[field];
    if (typeof value === 'string' || typeof value === 'number') out[field] = value;
  }
  if (safe.cause !== undefined) out.cause = serialize(safe.cause, depth + 1);
  if (error instanceof AggregateError)
    out.errors = (error.errors as unknown[]).map((e) => serialize(e, depth + 1));
  return out;
}
