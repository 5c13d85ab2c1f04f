-- A new outbox event wakes the worker when its transaction commits (NOTIFY is delivered at
-- commit, never on rollback); the worker's poll stays as the fallback (decision 020).
CREATE FUNCTION "locadora"."avisar_outbox"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('locadora_outbox', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "outbox_avisa" AFTER INSERT ON "locadora"."outbox"
  FOR EACH STATEMENT EXECUTE FUNCTION "locadora"."avisar_outbox"();
