import { readFileSync } from 'node:fs';
import type pg from 'pg';

// Linux reports process times in clock ticks of 10 ms (USER_HZ = 100).
export const MS_POR_TICK = 10;

/** CPU ticks (user + system) of these processes, from /proc. */
export function ticksDe(pids: number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    try {
      const campos = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks.set(pid, Number(campos[11]) + Number(campos[12]));
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks;
}

/**
 * The PostgreSQL processes working for this benchmark: the backends of its database and the
 * server-wide ones (WAL writer, checkpointer, ...). Backends of other databases (other tests
 * on the machine) are left out.
 */
export async function processosDoPostgres(banco: pg.Client, nome: string): Promise<number[]> {
  const r = await banco.query<{ pid: number }>(
    `select pid from pg_stat_activity where (datname = $1 or datname is null) and pid <> pg_backend_pid()`,
    [nome],
  );
  return r.rows.map((l) => l.pid);
}
