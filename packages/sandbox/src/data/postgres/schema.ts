/**
 * The sandbox's schema in PostgreSQL: its version, the migrations that lead to it, and the step that creates or
 * migrates a database at start (one replica at a time) or refuses one of a newer version.
 */
import type pg from "pg";
import { DatabaseError, redactedUrl } from "./connection.ts";

/** The version of the schema this sandbox writes; a database of a newer one is refused, an older one migrated. */
export const schemaVersion = 3;

/**
 * The migrations, in order: `migrations[n]` takes a database from version `n` to `n + 1`. Version 0 is
 * a database without the sandbox's tables.
 */
const migrations: readonly string[] = [
  `
  CREATE TABLE sandbox_workspaces (
    name text PRIMARY KEY,
    token_sha256 text UNIQUE,
    source jsonb NOT NULL,
    switches jsonb NOT NULL,
    generation bigint NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE sandbox_fired_events (
    sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace text NOT NULL REFERENCES sandbox_workspaces ON DELETE CASCADE,
    generation bigint NOT NULL,
    received_at text NOT NULL,
    sent_conversation_id text,
    sent_external_conversation_id text,
    external_event_id text NOT NULL,
    payload json,
    conversation_id text NOT NULL
  );
  CREATE INDEX sandbox_fired_events_by_workspace ON sandbox_fired_events (workspace, sequence);
  CREATE TABLE sandbox_faults (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workspace text NOT NULL REFERENCES sandbox_workspaces ON DELETE CASCADE,
    operation_id text,
    fault jsonb NOT NULL,
    times integer NOT NULL CHECK (times > 0)
  );
  CREATE INDEX sandbox_faults_by_workspace ON sandbox_faults (workspace, id);
  `,
  // Version 2: each fired event keeps the transaction that wrote it, and the list follows (transaction, sequence),
  // so that a reader's cursor never steps past a fire that commits late (see `fired-events.ts`). The events already
  // kept take the migration's transaction: older than every new one, in their order.
  `
  ALTER TABLE sandbox_fired_events ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
  DROP INDEX sandbox_fired_events_by_workspace;
  CREATE INDEX sandbox_fired_events_by_workspace ON sandbox_fired_events (workspace, xid, sequence);
  `,
  // Version 3: which creation of its name each workspace is, numbered by the database (the workspaces kept get theirs
  // now), so that a request bound to a removed workspace changes nothing of a new one of the same name.
  `
  ALTER TABLE sandbox_workspaces ADD COLUMN incarnation bigint GENERATED ALWAYS AS IDENTITY;
  `,
];

/**
 * Creates the schema or migrates it to `schemaVersion` (one replica at a time, under an advisory lock), in one
 * transaction; refuses a database whose schema is newer than this sandbox's with a `DatabaseError` naming `url`
 * without its password.
 */
export async function migrate(pool: pg.Pool, url: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext('bot-conversation-sandbox schema'))");
    await client.query("CREATE TABLE IF NOT EXISTS sandbox_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)");
    const found = (await client.query<{ version: number }>("SELECT version FROM sandbox_schema")).rows[0]?.version ?? 0;
    if (found > schemaVersion) {
      throw new DatabaseError(
        `--database-url ${redactedUrl(url)}: the database holds the sandbox's schema version ${found}, newer than this sandbox's ${schemaVersion}; run a sandbox of that version or newer`,
      );
    }
    for (let version = found; version < schemaVersion; version++) await client.query(migrations[version]!);
    // A database restored from a dump into another cluster (pg_restore) keeps each fired event's transaction id,
    // which that cluster may not have reached: such events would stay below no horizon (`firedEvents`) until its
    // ids pass theirs. An id this cluster never gave can only come from a restore, made before any replica
    // starts on it: every event then takes the oldest id, their order by sequence kept, before all new ones.
    await client.query(
      "UPDATE sandbox_fired_events SET xid = '3'::xid8 WHERE EXISTS (SELECT 1 FROM sandbox_fired_events WHERE xid >= pg_snapshot_xmax(pg_current_snapshot()))",
    );
    await client.query("INSERT INTO sandbox_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = $1", [schemaVersion]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
