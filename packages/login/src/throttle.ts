import { createHash } from 'node:crypto';
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '@locadora/db';

/**
 * The table a half keeps its failed-login counters in, and its columns: a text primary key, an
 * integer count and the window's start and end (timestamptz). Each half has its own table in
 * its own schema; the rules and the SQL are these.
 */
export interface AttemptCounters {
  table: PgTable;
  key: PgColumn;
  failures: PgColumn;
  windowStart: PgColumn;
  windowEnd: PgColumn;
}

export interface LoginLimits {
  maxFailuresPerEmail: number;
  maxFailuresPerAddress: number;
  blockMinutes: number;
}

/** An attempt the throttle let through (its password may be checked), or refused. */
export type ThrottledAttempt =
  | {
      blocked: false;
      /**
       * The password was right: the e-mail's count is cleared and the address gets this
       * attempt back (an office behind one address signs in all day). A wrong password needs
       * no call: the attempt was counted before the check and stays counted.
       */
      succeeded(): Promise<void>;
    }
  | {
      blocked: true;
      /** Whole seconds until the e-mail and the address may try again. */
      waitSeconds: number;
    };

export interface LoginThrottle {
  /**
   * Counts an attempt against the e-mail and the client address before any password is
   * checked, each count one atomic statement in the database: however many attempts race, at
   * most the limit of them get through, across every server process.
   */
  reserve(email: string, address: string, now: Date): Promise<ThrottledAttempt>;
}

// Ended windows removed per attempt: attempts add at most two rows each, so this keeps up.
const CLEANUP_PER_ATTEMPT = 100;

/** The key of an e-mail or address: a digest, so the table holds neither in clear. */
const keyOf = (kind: 'email' | 'endereco', value: string): string =>
  createHash('sha256').update(`${kind}:${value}`).digest('hex');

interface Window {
  failures: number;
  /** Identifies the window: a count taken back must be taken from the window that counted it. */
  start: Date;
  end: Date;
}

/** The SQL of the counters, on a half's table. */
function counterSql(db: Database, c: AttemptCounters) {
  return {
    /**
     * Counts one attempt against `key` in one statement, so concurrent attempts each see a
     * different count: a new window (ending at `blockEnd`) when the last one has ended; the
     * attempt that reaches `max` moves the window's end to `blockEnd`, the block.
     */
    async count(key: string, now: Date, blockEnd: Date, max: number): Promise<Window> {
      const instant = sql`${now.toISOString()}::timestamptz`;
      const block = sql`${blockEnd.toISOString()}::timestamptz`;
      const ended = sql`${c.windowEnd} <= ${instant}`;
      const result = (await db.execute(sql`
        insert into ${c.table} (${sql.identifier(c.key.name)}, ${sql.identifier(c.failures.name)},
                                ${sql.identifier(c.windowStart.name)}, ${sql.identifier(c.windowEnd.name)})
        values (${key}, 1, ${instant}, ${block})
        on conflict (${sql.identifier(c.key.name)}) do update set
          ${sql.identifier(c.failures.name)} = case when ${ended} then 1 else ${c.failures} + 1 end,
          ${sql.identifier(c.windowStart.name)} = case when ${ended} then ${instant} else ${c.windowStart} end,
          ${sql.identifier(c.windowEnd.name)} = case when ${ended} or ${c.failures} + 1 = ${max}::int then ${block} else ${c.windowEnd} end
        returning ${c.failures} as failures, ${c.windowStart} as window_start,
                  ${c.windowEnd} as window_end
      `)) as unknown as {
        rows: { failures: number; window_start: Date | string; window_end: Date | string }[];
      };
      const row = result.rows[0]!;
      return {
        failures: Number(row.failures),
        start: new Date(row.window_start),
        end: new Date(row.window_end),
      };
    },

    /** Takes back an attempt that checked no password, if its window is still the current one. */
    async takeBack(key: string, start: Date): Promise<void> {
      await db.execute(sql`
        update ${c.table} set ${sql.identifier(c.failures.name)} = ${c.failures} - 1
         where ${and(eq(c.key, key), eq(c.windowStart, start), gt(c.failures, 0))}`);
    },

    async clear(key: string): Promise<void> {
      await db.delete(c.table).where(eq(c.key, key));
    },

    /** Removes up to `limit` rows whose window has ended, skipping rows another login holds. */
    async removeEnded(now: Date, limit: number): Promise<void> {
      const ended = db
        .select({ key: c.key })
        .from(c.table)
        .where(lte(c.windowEnd, now))
        .limit(limit)
        .for('update', { skipLocked: true });
      await db.delete(c.table).where(inArray(c.key, ended));
    },
  };
}

/**
 * Failed logins per e-mail and, with a wider limit, per client address (an office behind one
 * address must not lock everyone out). The attempt that reaches a limit blocks the key for
 * `blockMinutes`; meanwhile every attempt, right password or not, is refused. Decision 004.
 */
export function createLoginThrottle(
  db: Database,
  counters: AttemptCounters,
  limits: LoginLimits,
): LoginThrottle {
  const repo = counterSql(db, counters);
  const blockMs = limits.blockMinutes * 60_000;

  return {
    async reserve(email, address, now) {
      await repo.removeEnded(now, CLEANUP_PER_ATTEMPT);
      const blockEnd = new Date(now.getTime() + blockMs);
      const count = async (key: string, max: number) => ({
        key,
        max,
        window: await repo.count(key, now, blockEnd, max),
      });
      const byEmail = await count(
        keyOf('email', email.trim().toLowerCase()),
        limits.maxFailuresPerEmail,
      );
      const byAddress = await count(keyOf('endereco', address), limits.maxFailuresPerAddress);
      const counted = [byEmail, byAddress];

      const exceeded = counted.filter((c) => c.window.failures > c.max);
      if (exceeded.length > 0) {
        // No password is checked, so the attempt is taken back from both keys: a refusal must
        // not eat into the other key's limit. Only attempts whose password was checked stay.
        for (const c of counted) await repo.takeBack(c.key, c.window.start);
        // Capped: a concurrent attempt read the clock a little later and started the block.
        const waitMs = Math.min(
          blockMs,
          Math.max(...exceeded.map((c) => c.window.end.getTime() - now.getTime())),
        );
        return { blocked: true, waitSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      }
      return {
        blocked: false,
        async succeeded() {
          await repo.clear(byEmail.key);
          await repo.takeBack(byAddress.key, byAddress.window.start);
        },
      };
    },
  };
}
