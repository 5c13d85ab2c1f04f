-- Written by hand (decision 040). A completion and a lease renewal name their jobs by id, and
-- each job is now reached by its primary key, one probe per id:
-- - their `state = 'active'` test matched the partial lease index (`queue_jobs_lease`), which
--   the planner took whatever its statistics said, reading every active job and every dead
--   version of one at each call. `(state = 'active') is true` means the same for a NOT NULL
--   column and matches no partial index;
-- - with an array of a few hundred ids, `id = any(ids)` was planned as a scan of the queue's
--   whole primary-key range filtered by id (cheaper than one descent per id in the cost model,
--   not on a table full of dead versions: 60 ms a call under a backlog of 20,000). A loop of
--   unique-key updates has one plan, the probe, kept for the session (no custom plans here).
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
CREATE OR REPLACE FUNCTION "sino"."queue_upkeep"(queue_name text, held uuid[], lease_ms int,
  failed_keep_seconds int, purge_limit int)
RETURNS TABLE (reclaimed int, purged int)
LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan
SET enable_indexscan = on
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $upkeep$
BEGIN
  -- The calling process's own jobs: it is alive, their leases go on.
  PERFORM sino.queue_renew(queue_name, held, lease_ms);
  -- Jobs of a process that stopped renewing them (killed, or cut off): the attempt counts, as a
  -- failure without backoff would; the job waits again at its old due time, ahead of later ones.
  WITH lapsed AS (
    SELECT j.id FROM sino.queue_jobs j
    WHERE j.queue = queue_name AND j.state = 'active' AND j.locked_until < now()
    FOR UPDATE SKIP LOCKED
  ), moved AS (
    UPDATE sino.queue_jobs j
    SET state = CASE WHEN j.attempts <= j.retry_limit THEN 'waiting' ELSE 'failed' END,
      locked_until = NULL,
      last_error = 'lease lapsed: the process running the job stopped renewing it',
      finished_at = CASE WHEN j.attempts > j.retry_limit THEN now() END,
      keep_until = CASE WHEN j.attempts > j.retry_limit
        THEN now() + failed_keep_seconds * interval '1 second' END
    FROM lapsed
    WHERE j.queue = queue_name AND j.id = lapsed.id
    RETURNING j.state
  )
  SELECT count(*) FILTER (WHERE moved.state = 'waiting') INTO reclaimed FROM moved;
  -- Finished jobs past their retention, a bounded batch per call.
  WITH expired AS (
    SELECT j.id FROM sino.queue_jobs j
    WHERE j.queue = queue_name AND j.state IN ('completed', 'failed') AND j.keep_until < now()
    ORDER BY j.keep_until
    LIMIT purge_limit
    FOR UPDATE SKIP LOCKED
  )
  DELETE FROM sino.queue_jobs j USING expired WHERE j.queue = queue_name AND j.id = expired.id;
  GET DIAGNOSTICS purged = ROW_COUNT;
  RETURN NEXT;
END
$upkeep$;
