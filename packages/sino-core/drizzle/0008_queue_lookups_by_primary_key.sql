-- Written by hand (decision 040). A completion and a lease renewal name their jobs by id, and
-- each job is now reached by its primary key, one probe per id:
-- - their `state = 'active'` test matched the partial lease index (`queue_jobs_lease`), which
--   the planner took whatever its statistics said, reading every active job and every dead
--   version of one at each call. `(state = 'active') is true` means the same for a NOT NULL
--   column and matches no partial index;
-- - with an array of a few hundred ids, `id = any(ids)` was planned as a scan of the queue's
--   whole primary-key range filtered by id (cheaper than one descent per id in the cost model,
--   not on a table full of dead versions: 60 ms a call under a backlog of 20,000). A loop of
--   unique-key updates has one plan, the probe, kept for the session (no custom plans here);
-- - the fetch's update, a join of the due jobs with the table, was planned the same way once
--   the table held rows of other queues: it now takes each due job by its key, and so do the
--   upkeep's lapsed leases and retention (`queue_reclaim`, `queue_purge`).
CREATE OR REPLACE FUNCTION "sino"."queue_fetch"(queue_name text, batch_size int, lease_ms int)
RETURNS TABLE (id uuid, data jsonb, attempts int, retry_limit int)
LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan
SET enable_indexscan = on
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $fetch$
#variable_conflict use_column
DECLARE
  job_id uuid;
BEGIN
  -- The next due jobs in due order, each then taken by this process for `lease_ms` by its
  -- key: as one join, the update was planned as a scan of the queue's whole key range per
  -- fetch once the table held other queues' rows (decision 040).
  FOR job_id IN
    SELECT j.id FROM sino.queue_jobs j
    WHERE j.queue = queue_name AND j.state = 'waiting' AND j.start_after <= now()
    ORDER BY j.start_after, j.id
    LIMIT batch_size
    FOR UPDATE SKIP LOCKED
  LOOP
    RETURN QUERY
    UPDATE sino.queue_jobs j
    SET state = 'active', attempts = j.attempts + 1, started_at = now(),
      locked_until = now() + lease_ms * interval '1 millisecond'
    WHERE j.queue = queue_name AND j.id = job_id
    RETURNING j.id, j.data, j.attempts, j.retry_limit;
  END LOOP;
END
$fetch$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sino"."queue_complete"(queue_name text, ids uuid[], keep_seconds int)
RETURNS int
LANGUAGE plpgsql
SET enable_indexscan = on
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $complete$
DECLARE
  job_id uuid;
  completed int := 0;
BEGIN
  FOREACH job_id IN ARRAY ids LOOP
    UPDATE sino.queue_jobs j
    SET state = 'completed', finished_at = now(), locked_until = NULL,
      keep_until = now() + keep_seconds * interval '1 second'
    WHERE j.queue = queue_name AND j.id = job_id AND (j.state = 'active') IS TRUE;
    IF FOUND THEN
      completed := completed + 1;
    END IF;
  END LOOP;
  RETURN completed;
END
$complete$;
--> statement-breakpoint
-- The leases of the calling process's jobs go on (it is alive), one probe per job.
CREATE FUNCTION "sino"."queue_renew"(queue_name text, held uuid[], lease_ms int)
RETURNS void
LANGUAGE plpgsql
SET enable_indexscan = on
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $renew$
DECLARE
  job_id uuid;
BEGIN
  FOREACH job_id IN ARRAY held LOOP
    UPDATE sino.queue_jobs j
    SET locked_until = now() + lease_ms * interval '1 millisecond'
    WHERE j.queue = queue_name AND j.id = job_id AND (j.state = 'active') IS TRUE;
  END LOOP;
END
$renew$;
--> statement-breakpoint
-- Jobs of a process that stopped renewing them (killed, or cut off): the attempt counts, as a
-- failure without backoff would; the job waits again at its old due time, ahead of later ones.
-- Each taken by its key (as a join, the update was planned as a scan of the queue's key range).
CREATE FUNCTION "sino"."queue_reclaim"(queue_name text, failed_keep_seconds int)
RETURNS int
LANGUAGE plpgsql
SET enable_indexscan = on
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $reclaim$
DECLARE
  job_id uuid;
  moved_to text;
  reclaimed int := 0;
BEGIN
  FOR job_id IN
    SELECT j.id FROM sino.queue_jobs j
    WHERE j.queue = queue_name AND j.state = 'active' AND j.locked_until < now()
    FOR UPDATE SKIP LOCKED
  LOOP
    UPDATE sino.queue_jobs j
    SET state = CASE WHEN j.attempts <= j.retry_limit THEN 'waiting' ELSE 'failed' END,
      locked_until = NULL,
      last_error = 'lease lapsed: the process running the job stopped renewing it',
      finished_at = CASE WHEN j.attempts > j.retry_limit THEN now() END,
      keep_until = CASE WHEN j.attempts > j.retry_limit
        THEN now() + failed_keep_seconds * interval '1 second' END
    WHERE j.queue = queue_name AND j.id = job_id
    RETURNING j.state INTO moved_to;
    IF moved_to = 'waiting' THEN
      reclaimed := reclaimed + 1;
    END IF;
  END LOOP;
  RETURN reclaimed;
END
$reclaim$;
--> statement-breakpoint
-- Finished jobs past their retention, a bounded batch per call, each deleted by its key.
CREATE FUNCTION "sino"."queue_purge"(queue_name text, purge_limit int)
RETURNS int
LANGUAGE plpgsql
SET enable_indexscan = on
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $purge$
DECLARE
  job_id uuid;
  purged int := 0;
BEGIN
  FOR job_id IN
    SELECT j.id FROM sino.queue_jobs j
    WHERE j.queue = queue_name AND j.state IN ('completed', 'failed') AND j.keep_until < now()
    ORDER BY j.keep_until
    LIMIT purge_limit
    FOR UPDATE SKIP LOCKED
  LOOP
    DELETE FROM sino.queue_jobs j WHERE j.queue = queue_name AND j.id = job_id;
    purged := purged + 1;
  END LOOP;
  RETURN purged;
END
$purge$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sino"."queue_upkeep"(queue_name text, held uuid[], lease_ms int,
  failed_keep_seconds int, purge_limit int)
RETURNS TABLE (reclaimed int, purged int)
LANGUAGE plpgsql
AS $upkeep$
BEGIN
  -- The calling process's own jobs: it is alive, their leases go on.
  PERFORM sino.queue_renew(queue_name, held, lease_ms);
  reclaimed := sino.queue_reclaim(queue_name, failed_keep_seconds);
  purged := sino.queue_purge(queue_name, purge_limit);
  RETURN NEXT;
END
$upkeep$;
