import { createHash } from 'node:crypto';
import pg from 'pg';

/** Statements with more parameters than this are left unnamed (multi-row inserts vary in size). */
const MAX_PARAMETERS = 64;
/** Distinct texts named at most, for the process: every connection keeps each it has run. */
const MAX_NAMES = 300;

const names = new Map<string, string>();

/** The prepared-statement name of a text, or undefined once the cap is reached. */
function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) {
    name = `auto_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    names.set(text, name);
  }
  return name;
}

type QueryConfigLike = { text: string; name?: string; values?: unknown[] } & Record<
  string,
  unknown
>;

/**
 * A node-postgres client that runs every statement with parameters as a named prepared
 * statement: PostgreSQL then parses it once per connection and may keep its plan, where an
 * unnamed statement is parsed and planned at every call. The statements this product sends
 * are built by code (Drizzle, the queue) with their values as parameters, so their texts are
 * few; planning was about half of PostgreSQL's time per notification (bench/README.md).
 * Texts of many parameters (multi-row inserts, whose text changes with the row count) and
 * statements without parameters stay unnamed, and the names are capped.
 */
class Preparing extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // A connection lost while the client is checked out of the pool (inside a transaction)
    // is an 'error' event nobody listens to, which would end the process. Its statements
    // fail on their own, and the pool drops the client when it comes back.
    this.on('error', () => {});
  }

  override query(...args: unknown[]): never {
    const [config, values] = args;
    const params = Array.isArray(values)
      ? values
      : typeof config === 'object' && config !== null
        ? (config as QueryConfigLike).values
        : undefined;
    const named =
      params !== undefined && params.length > 0 && params.length <= MAX_PARAMETERS
        ? typeof config === 'string'
          ? withName({ text: config }, args)
          : isPlainConfig(config) && config.name === undefined
            ? withName(config, args)
            : undefined
        : undefined;
    const call = named ?? args;
    const callback = call.findLastIndex((a) => typeof a === 'function');
    if (callback > 0) {
      const given = call[callback] as (error: unknown, ...rest: unknown[]) => void;
      const watched = [...call];
      watched[callback] = (error: unknown, ...rest: unknown[]) => {
        this.#dropIfUnanswered(error);
        given(error, ...rest);
      };
      return (super.query as (...a: unknown[]) => never).apply(this, watched);
    }
    const result = (super.query as (...a: unknown[]) => unknown).apply(this, call);
    if (result instanceof Promise) result.catch((error: unknown) => this.#dropIfUnanswered(error));
    return result as never;
  }

  /**
   * node-postgres answers a statement unanswered after `query_timeout` with an error but keeps
   * the connection, whose next statements would queue behind the lost answer (a stalled
   * server or network). It is closed instead, as pg does itself in pipeline mode: the
   * statements queued on it fail at once and the pool opens a new connection.
   */
  #dropIfUnanswered(error: unknown): void {
    if (error instanceof Error && error.message === 'Query read timeout')
      (
        this as unknown as { connection: { stream: { destroy(): void } } }
      ).connection.stream.destroy();
  }
}

function isPlainConfig(config: unknown): config is QueryConfigLike {
  return (
    typeof config === 'object' &&
    config !== null &&
    typeof (config as { text?: unknown }).text === 'string' &&
    // A Submittable (a Query object, a cursor) is passed through as it is.
    typeof (config as { submit?: unknown }).submit !== 'function'
  );
}

/** The call's arguments with the config copied and named (callers reuse their configs). */
function withName(config: QueryConfigLike, args: unknown[]): unknown[] | undefined {
  const name = nameOf(config.text);
  if (name === undefined) return undefined;
  return [{ ...config, name }, ...args.slice(1)];
}

/** `Preparing`, with pg.Client's own typing (its `query` overloads) for callers. */
export const PreparingClient: typeof pg.Client = Preparing;
