CREATE TABLE "sino"."queue_jobs" (
	"queue" text NOT NULL,
	"id" uuid NOT NULL,
	"data" jsonb,
	"state" text DEFAULT 'waiting' NOT NULL,
	"start_after" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"retry_limit" integer NOT NULL,
	"backoff_ms" bigint DEFAULT 0 NOT NULL,
	"backoff_exponential" boolean DEFAULT false NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"keep_until" timestamp with time zone,
	CONSTRAINT "queue_jobs_queue_id_pk" PRIMARY KEY("queue","id"),
	CONSTRAINT "queue_jobs_state" CHECK ("sino"."queue_jobs"."state" in ('waiting', 'active', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "queue_jobs_due" ON "sino"."queue_jobs" USING btree ("queue","start_after","id") WHERE "sino"."queue_jobs"."state" = 'waiting';--> statement-breakpoint
CREATE INDEX "queue_jobs_lease" ON "sino"."queue_jobs" USING btree ("queue","locked_until") WHERE "sino"."queue_jobs"."state" = 'active';--> statement-breakpoint
CREATE INDEX "queue_jobs_expiry" ON "sino"."queue_jobs" USING btree ("queue","keep_until") WHERE "sino"."queue_jobs"."state" in ('completed', 'failed');--> statement-breakpoint
-- Written by hand from here on: drizzle-kit expresses no functions (decision 016). The queue's
-- fetch, completion and upkeep are one function each, pinned to plain index scans and planned
-- for the values of each call (decision 014: a bitmap scan visited every dead row version at
-- every fetch, and a plan cached on an empty queue read every kept job at every completion).
CREATE FUNCTION "sino"."queue_fetch"(queue_name text, batch_size int, lease_ms int)
RETURNS TABLE (id uuid, data jsonb, attempts int, retry_limit int)
LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan
SET enable_indexscan = on
SET enable_bitmapscan = off
SET enable_seqscan = off
AS $fetch$
#variable_conflict use_column
BEGIN
  -- The next due jobs in due order, taken by this process for `lease_ms`.
  RETURN QUERY
  WITH next AS (
    SELECT j.id FROM sino.queue_jobs j
    WHERE j.queue = queue_name AND j.state = 'waiting' AND j.start_after <= now()
    ORDER BY j.start_after, j.id
    LIMIT batch_size
    FOR UPDATE SKIP LOCKED
  )
  UPDATE sino.queue_jobs j
  SET state = 'active', attempts = j.attempts + 1, started_at = now(),
    locked_until = now() + lease_ms * interval '1 millisecond'
  FROM next
  WHERE j.queue = queue_name AND j.id = next.id
  RETURNING j.id, j.data, j.attempts, j.retry_limit;
END
$fetch$;
--> statement-breakpoint
CREATE FUNCTION "sino"."queue_complete"(queue_name text, ids uuid[], keep_seconds int)
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
  WHERE j.queue = queue_name AND j.id = ANY(ids) AND j.state = 'active';
  GET DIAGNOSTICS completed = ROW_COUNT;
  RETURN completed;
END
$complete$;
--> statement-breakpoint
CREATE FUNCTION "sino"."queue_upkeep"(queue_name text, held uuid[], lease_ms int,
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
  WHERE j.queue = queue_name AND j.id = ANY(held) AND j.state = 'active';
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
--> statement-breakpoint
-- Upgrade from pg-boss (decision 016): the jobs it still held in its schema `sino_queue`
-- (waiting, delayed, waiting for a retry, or active in a process of the old version) are copied
-- here once, with their data, due times and retry settings. An active one waits again, its
-- interrupted attempt not counted. Jobs already finished are not copied. `sino_queue` is only
-- read; it can be dropped once every process runs this version.
DO $upgrade$
BEGIN
  IF to_regclass('sino_queue.job') IS NOT NULL THEN
    INSERT INTO sino.queue_jobs (queue, id, data, state, start_after, attempts, retry_limit,
      backoff_ms, backoff_exponential, created_at)
    SELECT j.name, j.id, j.data, 'waiting', j.start_after,
      CASE WHEN j.started_on IS NULL THEN 0
        WHEN j.state::text = 'active' THEN j.retry_count
        ELSE j.retry_count + 1 END,
      j.retry_limit, j.retry_delay * 1000::bigint, j.retry_backoff, j.created_on
    FROM sino_queue.job j
    WHERE j.state::text IN ('created', 'retry', 'active')
    ON CONFLICT DO NOTHING;
  END IF;
END
$upgrade$;
