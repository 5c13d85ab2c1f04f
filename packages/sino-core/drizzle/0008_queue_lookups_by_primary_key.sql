-- Written by hand (decision 040). A completion and a lease renewal name their jobs by id: they
-- go through the primary key. Their `state = 'active'` test matched the partial lease index
-- (`queue_jobs_lease`), which every planner, with or without statistics, found cheaper: each
-- call then read every active job and every dead version of one (385 index entries per scan
-- under a backlog of 20,000, bench/README.md). `(state = 'active') IS TRUE` means the same for
-- a NOT NULL column and matches no partial index, so the primary key is the only way in.
CREATE OR REPLACE FUNCTION "sino"."queue_complete"(queue_name text, ids uuid[], keep_seconds int)
RETURNS int
LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan
SET enable_indexscan = on
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $complete$
DECLARE
  completed int;
BEGIN
  UPDATE sino.queue_jobs j
  SET state = 'completed', finished_at = now(), locked_until = NULL,
    keep_until = now() + keep_seconds * interval '1 second'
  WHERE j.queue = queue_name AND j.id = ANY(ids) AND (j.state = 'active') IS TRUE;
  GET DIAGNOSTICS completed = ROW_COUNT;
  RETURN completed;
END
$complete$;
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
  UPDATE sino.queue_jobs j
  SET locked_until = now() + lease_ms * interval '1 millisecond'
  WHERE j.queue = queue_name AND j.id = ANY(held) AND (j.state = 'active') IS TRUE;
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
