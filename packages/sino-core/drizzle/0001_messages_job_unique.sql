-- A crash between a message's insert and its job's completion could send a job's message twice
-- (the queue delivers at least once). Keep the first of any such pair, then allow one per job.
DELETE FROM "sino"."messages" AS later
USING "sino"."messages" AS first
WHERE later."job_id" = first."job_id"
  AND (later."created_at", later."id") > (first."created_at", first."id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_job" ON "sino"."messages" USING btree ("job_id");
