/**
 * The shared sandbox's store on PostgreSQL (`--database-url`): every workspace's data source, switches,
 * armed faults and fired events, in a schema the sandbox creates and migrates itself. Every statement the
 * sandbox runs on PostgreSQL is in this file. Each acknowledged write is one committed transaction (the
 * answer follows the commit, PostgreSQL's default `synchronous_commit`); every change that other replicas
 * must follow is announced with `NOTIFY` in the transaction that makes it, so it reaches them on commit.
 */
import pg from "pg";
import type { DataSource } from "../model.ts";
import type { SandboxSwitches } from "../switches.ts";
import { armedFault, type Fault, type FaultRequest, type FaultStore, noFault, type OperationId } from "./faults.ts";
import {
  type FiredEventRecord,
  type FiredEventRow,
  type FiredEventsFilter,
  type FiredEventsPage,
  type FiredEventsStore,
  firedEventValues,
  pageOfRows,
  StoreUnavailableError,
} from "./fired-events.ts";
import type { SandboxStore, WorkspaceChange, WorkspacePage, WorkspaceRow, WorkspaceStore } from "./store.ts";

/** The version of the schema this sandbox writes; a database of a newer one is refused, an older one migrated. */
export const schemaVersion = 2;

/** The channel of `LISTEN` / `NOTIFY` on which replicas hear each other's changes. */
const channel = "bot_conversation_sandbox";

/** Seconds a client is told to wait (`Retry-After`) when the database cannot be reached: our choice. */
export const databaseRetryAfterSeconds = 1;

/**
 * The longest the sandbox waits on PostgreSQL for one step, in milliseconds (our choice): a connection from
 * the pool (or a new one), and each statement (the server's `statement_timeout`, and the client's own
 * `query_timeout` for a server that does not answer at all). A database that stalls makes a request a 503
 * with `Retry-After` after at most about twice this (a connection, then a statement), never a request held
 * for the whole stall. TCP keep-alive finds a connection whose peer is gone.
 */
export const databaseWaitMs = 3_000;

/** The longest a statement that replaces a workspace's data may run (a fixture of up to 256 MiB), in milliseconds (our choice). */
const replaceDataWaitMs = 60_000;

/** A statement given `replaceDataWaitMs` rather than a request's bound (`query_timeout` per query, which pg's types do not list). */
function longStatement(text: string, values: unknown[]): pg.QueryConfig {
  return { text, values, query_timeout: replaceDataWaitMs } as pg.QueryConfig;
}

/** What every connection to PostgreSQL is opened with: the bounds above, and TCP keep-alive. */
function connectionOptions(url: string): pg.ClientConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: databaseWaitMs,
    query_timeout: databaseWaitMs,
    statement_timeout: databaseWaitMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 1_000,
  };
}

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
  // so that a reader's cursor never steps past a fire that commits late (see `firedEvents`). The events already
  // kept take the migration's transaction: older than every new one, in their order.
  `
  ALTER TABLE sandbox_fired_events ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
  DROP INDEX sandbox_fired_events_by_workspace;
  CREATE INDEX sandbox_fired_events_by_workspace ON sandbox_fired_events (workspace, xid, sequence);
  `,
];

/**
 * The advisory lock a transaction that writes fires of a workspace holds, shared, from before its first row to
 * its commit (the pair of keys of `pg_advisory_xact_lock_shared(int, int)`: this class, the workspace's
 * `hashtext`): how a reader of the fired events finds the fires still in flight (`firedEvents`).
 */
const firesLockClass = "hashtext('bot-conversation-sandbox fires')";

/** How long a token this replica knows of no workspace waits for a creation's notification before its 401, in milliseconds (our choice). */
const unknownTokenWaitMs = 100;

/** Fires one INSERT writes at most (6 parameters each, well within PostgreSQL's 65,535). */
const firesPerInsert = 500;

/** The fires of one workspace and generation recorded in one turn, and the promise all of them wait on. */
interface FireBatch {
  readonly name: string;
  readonly generation: number;
  readonly events: FiredEventRecord[];
  readonly committed: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** A workspace created, as `NOTIFY` carries it to every replica: its token's hash (never the token), so each knows the tokens of every workspace. */
interface WorkspaceCreated {
  readonly workspace: string;
  readonly change: "created";
  readonly tokenSha256: string;
}

/** A `--database-url` that cannot be used: one line naming the database (never its password) and the problem. */
export class DatabaseError extends Error {
  override name = "DatabaseError";
}

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    // libpq's form `?password=` too.
    if (parsed.searchParams.has("password")) parsed.searchParams.set("password", "***");
    return parsed.toString();
  } catch {
    return "(not a URL)";
  }
}

/**
 * Whether an error means the database cannot be reached now (a connection refused, ended or reset, a
 * server shutting down or out of connections) rather than a problem of the request.
 */
function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  // 57014: a statement ended by `statement_timeout`.
  if (typeof code === "string" && /^(08|57P|57014|53300)/.test(code)) return true;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|timeout exceeded when trying to connect|Query read timeout/i.test(
    String((error as Error).message),
  );
}

/** Runs a database call; an unreachable database becomes a `StoreUnavailableError` (a 503 with `Retry-After`). */
async function reaching<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUnreachable(error))
      throw new StoreUnavailableError(`The sandbox's database cannot be reached now; try again in ${databaseRetryAfterSeconds} s.`, databaseRetryAfterSeconds);
    throw error;
  }
}

/** A fire checked against data that another replica replaced meanwhile: refused with 503 (nothing kept), to be sent again. */
function dataChanged(): StoreUnavailableError {
  return new StoreUnavailableError("The workspace's data was replaced while this fire was checked; nothing was kept: send it again.", 0);
}

/** The store on PostgreSQL, shared by replicas: a pool for requests and one connection that listens for other replicas' changes. */
export class PostgresStore implements SandboxStore {
  readonly #pool: pg.Pool;
  readonly #url: string;
  #listener: pg.Client | undefined;
  #closed = false;
  #listening = false;
  /** The SHA-256 of every workspace's token, with its name, while this replica hears the others (`undefined` otherwise). */
  #tokens: Map<string, string> | undefined;
  /** Creations this replica made and waits to hear announced, by token hash. */
  readonly #heard = new Map<string, () => void>();

  private constructor(url: string, pool: pg.Pool) {
    this.#url = url;
    this.#pool = pool;
  }

  /**
   * Connects, creates or migrates the schema (one replica at a time, under an advisory lock), and refuses
   * a database whose schema is newer than this sandbox's, in one line.
   */
  static async open(url: string, connections = 16): Promise<PostgresStore> {
    const pool = new pg.Pool({ ...connectionOptions(url), max: connections });
    // An idle connection the server ends (a restart) is dropped from the pool; the next query opens another.
    pool.on("error", () => undefined);
    const store = new PostgresStore(url, pool);
    try {
      await store.#migrate();
    } catch (error) {
      await pool.end();
      if (error instanceof DatabaseError) throw error;
      throw new DatabaseError(`--database-url ${redactedUrl(url)}: ${(error as Error).message}`);
    }
    return store;
  }

  async #migrate(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock(hashtext('bot-conversation-sandbox schema'))");
      await client.query("CREATE TABLE IF NOT EXISTS sandbox_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)");
      const found = (await client.query<{ version: number }>("SELECT version FROM sandbox_schema")).rows[0]?.version ?? 0;
      if (found > schemaVersion) {
        throw new DatabaseError(
          `--database-url ${redactedUrl(this.#url)}: the database holds the sandbox's schema version ${found}, newer than this sandbox's ${schemaVersion}; run a sandbox of that version or newer`,
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

  /**
   * Listens for the changes every replica announces, calling `onChange` for each; `onReconnect` is called
   * when the listening connection was lost and is back (changes may have been missed meanwhile), and
   * `onDisconnect` once when it is lost.
   */
  async listen(onChange: (change: WorkspaceChange) => void, onReconnect: () => void, onDisconnect: () => void = () => undefined): Promise<void> {
    let connected = false;
    let wait = 50;
    /** Opens the listening connection; once it was open, a loss (or a failed attempt) tries again after a wait that doubles up to 1 s. */
    const attempt = async (first: boolean): Promise<void> => {
      if (this.#closed) return;
      const client = new pg.Client(connectionOptions(this.#url));
      let lost = first;
      const onLost = () => {
        if (lost) return;
        lost = true;
        this.#listening = false;
        if (connected && !this.#closed) onDisconnect();
        connected = false;
        // Changes may be missed until the connection is back: every token is asked of the database meanwhile.
        this.#tokens = undefined;
        client.end().catch(() => undefined);
        if (this.#closed) return;
        // The database is restarting or gone: asked again, no more often than the wait.
        setTimeout(() => void attempt(false), wait).unref();
        wait = Math.min(wait * 2, 1_000);
      };
      client.on("error", onLost);
      client.on("end", onLost);
      client.on("notification", (message) => {
        if (message.channel !== channel || message.payload === undefined) return;
        const change = JSON.parse(message.payload) as WorkspaceChange | WorkspaceCreated;
        if (change.change === "created") {
          this.#tokens?.set(change.tokenSha256, change.workspace);
          this.#heard.get(change.tokenSha256)?.();
          return;
        }
        if (change.change === "deleted") this.#forgetTokensOf(change.workspace);
        onChange(change);
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
        // Read once listening, so a workspace created meanwhile is in the rows or in a notification.
        this.#tokens = new Map();
        const rows = (
          await client.query<{ name: string; token_sha256: string }>("SELECT name, token_sha256 FROM sandbox_workspaces WHERE token_sha256 IS NOT NULL")
        ).rows;
        for (const row of rows) this.#tokens.set(row.token_sha256, row.name);
      } catch (error) {
        this.#tokens = undefined;
        client.end().catch(() => undefined);
        // The first attempt fails the start; a later one is tried again.
        if (first) throw error;
        return onLost();
      }
      if (this.#closed) {
        await client.end();
        return;
      }
      lost = false;
      connected = true;
      this.#listener = client;
      this.#listening = true;
      wait = 50;
      if (!first) onReconnect();
    };
    await attempt(true);
  }

  /** Whether the database answers now and this replica hears other replicas' changes (readiness). */
  async ready(): Promise<boolean> {
    if (!this.#listening) return false;
    try {
      await this.#pool.query("SELECT 1");
      return true;
    } catch {
      return false;
    }
  }

  /** The pool's connections now: open, idle, and requests waiting for one. */
  poolStatistics(): { total: number; idle: number; waiting: number } {
    return { total: this.#pool.totalCount, idle: this.#pool.idleCount, waiting: this.#pool.waitingCount };
  }

  /** The time of one round trip (`SELECT 1` on a pooled connection) in seconds, or `undefined` when the database does not answer. */
  async roundTrip(): Promise<number | undefined> {
    const started = performance.now();
    try {
      await this.#pool.query("SELECT 1");
      return (performance.now() - started) / 1000;
    } catch {
      return undefined;
    }
  }

  /** Creates a workspace unless one of that name exists; resolves to whether it was created. */
  async createWorkspace(name: string, source: DataSource, switches: Partial<SandboxSwitches>, tokenSha256: string | null): Promise<boolean> {
    const created = await this.#transaction(async (client) => {
      const inserted = await client.query(
        "INSERT INTO sandbox_workspaces (name, token_sha256, source, switches) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING",
        [name, tokenSha256, JSON.stringify(source), JSON.stringify(switches)],
      );
      // Every replica learns the token's hash, so a wrong token is refused without asking the database.
      if (inserted.rowCount === 1 && tokenSha256 !== null) await notify(client, { workspace: name, change: "created", tokenSha256 });
      return inserted.rowCount === 1;
    });
    if (created && tokenSha256 !== null) {
      this.#tokens?.set(tokenSha256, name);
      // Answered once this replica heard its own announcement (at most a second): the others were told at the
      // same commit, so the new token is known everywhere by the time its creator can hand it on.
      if (this.#listening) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          this.#heard.set(tokenSha256, resolve);
          timer = setTimeout(resolve, 1_000);
        });
        clearTimeout(timer);
        this.#heard.delete(tokenSha256);
      }
    }
    return created;
  }

  /** Drops the token hashes of a removed workspace from what this replica knows. */
  #forgetTokensOf(name: string): void {
    if (this.#tokens) for (const [hash, owner] of this.#tokens) if (owner === name) this.#tokens.delete(hash);
  }

  /** At most `limit` workspaces, by name, after the name `after` (from the first without it), without their data; `next` names the last one when more follow. */
  async listWorkspaces(after: string | undefined, limit: number): Promise<WorkspacePage> {
    return reaching(async () => {
      // One row more than the page: whether another page follows, without counting them all.
      const rows = (
        await this.#pool.query<{ name: string; created_at: Date }>(
          "SELECT name, created_at FROM sandbox_workspaces WHERE $1::text IS NULL OR name > $1 ORDER BY name LIMIT $2",
          [after ?? null, limit + 1],
        )
      ).rows;
      const workspaces = rows.slice(0, limit).map((row) => ({ name: row.name, createdAt: row.created_at.toISOString() }));
      return rows.length > limit ? { workspaces, next: workspaces.at(-1)!.name } : { workspaces };
    });
  }

  /** Replaces a workspace's switches, announced to every replica. */
  async setSwitches(name: string, switches: Partial<SandboxSwitches>): Promise<void> {
    await this.#transaction(async (client) => {
      await client.query("UPDATE sandbox_workspaces SET switches = $2 WHERE name = $1", [name, JSON.stringify(switches)]);
      await notify(client, { workspace: name, change: "switches" });
    });
  }

  /** Removes a workspace and everything it holds; resolves to whether there was one. */
  async deleteWorkspace(name: string): Promise<boolean> {
    return this.#transaction(async (client) => {
      const deleted = await client.query("DELETE FROM sandbox_workspaces WHERE name = $1", [name]);
      if (deleted.rowCount === 1) await notify(client, { workspace: name, change: "deleted" });
      return deleted.rowCount === 1;
    }).then((deleted) => {
      this.#forgetTokensOf(name);
      return deleted;
    });
  }

  /** A workspace by name, or `undefined`. */
  async workspace(name: string): Promise<WorkspaceRow | undefined> {
    return this.#workspaceWhere("name", name);
  }

  async #workspaceWhere(column: "name" | "token_sha256", value: string): Promise<WorkspaceRow | undefined> {
    return reaching(async () => {
      const row = (
        await this.#pool.query<{ name: string; source: DataSource; switches: Partial<SandboxSwitches>; generation: string; created_at: Date }>(
          `SELECT name, source, switches, generation, created_at FROM sandbox_workspaces WHERE ${column} = $1`,
          [value],
        )
      ).rows[0];
      return row && { name: row.name, source: row.source, switches: row.switches, generation: Number(row.generation), createdAt: row.created_at.toISOString() };
    });
  }

  /** The workspace whose token has this SHA-256, or `undefined`. */
  async workspaceOfToken(tokenSha256: string): Promise<WorkspaceRow | undefined> {
    // A token of no workspace (the hashes are known while this replica hears the others) costs no round trip.
    if (this.#tokens !== undefined && !this.#tokens.has(tokenSha256)) {
      // Asked again each turn of the event loop for up to `unknownTokenWaitMs`: a creation's notification on its
      // way (a workspace made on one replica and used on another at once) is then known; a wrong token waits that
      // long, and asks the database nothing.
      const until = performance.now() + unknownTokenWaitMs;
      do await new Promise((resolve) => setImmediate(resolve));
      while (this.#tokens !== undefined && !this.#tokens.has(tokenSha256) && performance.now() < until);
      if (this.#tokens !== undefined && !this.#tokens.has(tokenSha256)) return undefined;
    }
    return this.#workspaceWhere("token_sha256", tokenSha256);
  }

  /** What one workspace keeps here: its fired events, faults and data source, at the generation loaded. */
  workspaceStore(name: string, generation: number): PostgresWorkspaceStore {
    return new PostgresWorkspaceStore(this, name, generation);
  }

  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  async #transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return reaching(async () => {
      const client = await this.#pool.connect();
      let result: T;
      try {
        await client.query("BEGIN");
        result = await work(client);
        await client.query("COMMIT");
      } catch (error) {
        // A connection that timed out may still be busy with its statement: dropped rather than waited on again.
        const rolledBack =
          !isUnreachable(error) &&
          (await client.query("ROLLBACK").then(
            () => true,
            () => false,
          ));
        client.release(rolledBack ? undefined : (error as Error));
        throw error;
      }
      client.release();
      return result;
    });
  }

  /** Replaces a workspace's data: the new source and no fired event, committed together; resolves to the new generation. */
  async replaceData(name: string, source: DataSource): Promise<number> {
    return this.#transaction(async (client) => {
      // A large fixture may take longer than a request's bound to write: this transaction's own.
      await client.query(`SET LOCAL statement_timeout = ${replaceDataWaitMs}`);
      const row = (
        await client.query<{ generation: string }>(
          longStatement("UPDATE sandbox_workspaces SET source = $2, generation = generation + 1 WHERE name = $1 RETURNING generation", [
            name,
            JSON.stringify(source),
          ]),
        )
      ).rows[0];
      if (!row) throw new StoreUnavailableError(`The workspace ${JSON.stringify(name)} was removed.`, 0);
      await client.query(longStatement("DELETE FROM sandbox_fired_events WHERE workspace = $1", [name]));
      await notify(client, { workspace: name, change: "data" });
      return Number(row.generation);
    });
  }

  /**
   * Keeps a fired event checked against the data of `generation`, with group commit: the fires recorded in one
   * turn of the event loop, per workspace and generation, are written by one multi-row INSERT (its own
   * transaction, so one commit; `synchronous_commit` as the server has it), and each resolves only once that
   * statement has committed. Refused (none of them kept) when the workspace's data is no longer of that
   * generation.
   */
  recordFire(name: string, generation: number, event: FiredEventRecord): Promise<void> {
    const key = `${generation}:${name}`;
    let batch = this.#pendingFires.get(key);
    if (batch === undefined) {
      let settle!: { resolve: () => void; reject: (error: unknown) => void };
      const committed = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
      batch = { name, generation, events: [], committed, ...settle };
      this.#pendingFires.set(key, batch);
      // After this turn's I/O callbacks: every fire whose body arrived in this turn joins the one statement.
      if (this.#pendingFires.size === 1) setImmediate(this.#writePendingFires);
    }
    batch.events.push(event);
    return batch.committed;
  }

  /** The fires recorded in this turn and not yet written, by workspace and generation. */
  readonly #pendingFires = new Map<string, FireBatch>();

  /** Writes each pending batch of fires in one statement, settling its fires' promise once it committed (or failed). */
  readonly #writePendingFires = (): void => {
    const batches = [...this.#pendingFires.values()];
    this.#pendingFires.clear();
    for (const batch of batches) {
      void this.#insertFires(batch.name, batch.generation, batch.events).then(batch.resolve, batch.reject);
    }
  };

  /** Inserts the fires in order, in statements of at most `firesPerInsert` rows; refused when the data is no longer of `generation`. */
  async #insertFires(name: string, generation: number, events: readonly FiredEventRecord[]): Promise<void> {
    const write = async (on: pg.Pool | pg.PoolClient, rows: readonly FiredEventRecord[]) => {
      const values: unknown[] = [name, generation];
      const tuples = rows.map((event, index) => {
        const first = values.length + 1;
        values.push(...firedEventValues(event));
        return `(${index}, $${first}::text, $${first + 1}::text, $${first + 2}::text, $${first + 3}::text, $${first + 4}::json, $${first + 5}::text)`;
      });
      return on.query(
        // The lock is taken before any row is joined, so before the transaction has an id (its first row written).
        `WITH fires_lock AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared(${firesLockClass}, hashtext($1)))
         INSERT INTO sandbox_fired_events (workspace, generation, received_at, sent_conversation_id, sent_external_conversation_id, external_event_id, payload, conversation_id)
         SELECT w.name, w.generation, v.received_at, v.sent_conversation_id, v.sent_external_conversation_id, v.external_event_id, v.payload, v.conversation_id
           FROM fires_lock, sandbox_workspaces w,
                (VALUES ${tuples.join(", ")}) AS v(position, received_at, sent_conversation_id, sent_external_conversation_id, external_event_id, payload, conversation_id)
          WHERE w.name = $1 AND w.generation = $2
          ORDER BY v.position`,
        values,
      );
    };
    if (events.length <= firesPerInsert) {
      const inserted = await reaching(() => write(this.#pool, events));
      if (inserted.rowCount !== events.length) throw dataChanged();
      return;
    }
    // More than one statement holds: one transaction, so they are kept (or refused) together.
    await this.#transaction(async (client) => {
      for (let start = 0; start < events.length; start += firesPerInsert) {
        const rows = events.slice(start, start + firesPerInsert);
        if ((await write(client, rows)).rowCount !== rows.length) throw dataChanged();
      }
    });
  }

  /**
   * A page of a workspace's fired events (those of its data in place), oldest first: in the order of the
   * transactions that wrote them (their `xid`, taken at their first row), then of their sequence.
   *
   * Such transactions commit in any order, so a page holds only events below a horizon: the oldest
   * transaction still writing fires of this workspace, or, when none is, the first id not yet given (the
   * `xmax` of a snapshot taken first). A first statement reads the horizon (snapshot, then the locks of
   * `firesLockClass`) and the cursor's place; a second, with a later snapshot, reads the page. A fire not
   * committed when the second began either had no id yet when the first read its snapshot (so its id is above
   * the horizon), or had one and still holds its lock (so the horizon is at most its id): no page steps past it.
   * The cursor is the sequence of the last event of the page before; an event gone (cleared) reads on from the
   * oldest event kept.
   */
  async firedEvents(name: string, filter: FiredEventsFilter, after: number, limit: number): Promise<FiredEventsPage> {
    const rows = await reaching(async () => {
      const [place] = (
        await this.#pool.query<{ horizon: string; cursor_xid: string; cursor_sequence: string }>(
          `SELECT least(
                    pg_snapshot_xmax(s),
                    (SELECT min(x) FROM pg_snapshot_xip(s) x
                       JOIN pg_locks t ON t.locktype = 'transactionid' AND t.granted AND t.mode = 'ExclusiveLock' AND t.transactionid = xid(x)
                       JOIN pg_locks a ON a.virtualtransaction = t.virtualtransaction AND a.locktype = 'advisory' AND a.granted
                                      AND a.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                                      AND a.classid = (${firesLockClass})::oid AND a.objid = hashtext($1)::oid AND a.objsubid = 2)
                  )::text AS horizon,
                  coalesce(c.xid, '0'::xid8)::text AS cursor_xid,
                  CASE WHEN c.xid IS NULL THEN 0 ELSE $2 END::text AS cursor_sequence
             FROM pg_current_snapshot() s
             LEFT JOIN sandbox_fired_events c ON c.workspace = $1 AND c.sequence = $2`,
          [name, after],
        )
      ).rows;
      return (
        await this.#pool.query<FiredEventRow>(
          `SELECT e.sequence, e.received_at, e.sent_conversation_id, e.sent_external_conversation_id, e.external_event_id, e.payload, e.conversation_id
             FROM sandbox_fired_events e JOIN sandbox_workspaces w ON w.name = e.workspace AND w.generation = e.generation
            WHERE e.workspace = $1 AND (e.xid, e.sequence) > ($2::xid8, $3::bigint) AND e.xid < $4::xid8
              AND ($5::text IS NULL OR e.conversation_id = $5) AND ($6::text IS NULL OR e.external_event_id = $6)
            ORDER BY e.xid, e.sequence LIMIT $7`,
          [name, place!.cursor_xid, place!.cursor_sequence, place!.horizon, filter.conversationId ?? null, filter.externalEventId ?? null, limit + 1],
        )
      ).rows;
    });
    return pageOfRows(rows, limit);
  }

  /** Forgets a workspace's fired events. */
  async clearFiredEvents(name: string): Promise<void> {
    await reaching(() =>
      this.#transaction(async (client) => {
        // Many events may take longer than a request's bound to delete: this transaction's own.
        await client.query(`SET LOCAL statement_timeout = ${replaceDataWaitMs}`);
        await client.query(longStatement("DELETE FROM sandbox_fired_events WHERE workspace = $1", [name]));
      }),
    );
  }

  /** Arms a fault in a workspace, announced to every replica. */
  async addFault(name: string, fault: Fault): Promise<void> {
    await this.#transaction(async (client) => {
      const { times, ...rest } = fault;
      await client.query("INSERT INTO sandbox_faults (workspace, operation_id, fault, times) VALUES ($1, $2, $3, $4)", [
        name,
        fault.operationId ?? null,
        JSON.stringify(rest),
        times,
      ]);
      await notify(client, { workspace: name, change: "faults" });
    });
  }

  /** The operations a workspace's armed faults target (`null`: every operation), oldest first. */
  async faultTargets(name: string): Promise<(OperationId | null)[]> {
    return reaching(async () =>
      (
        await this.#pool.query<{ operation_id: OperationId | null }>("SELECT operation_id FROM sandbox_faults WHERE workspace = $1 ORDER BY id", [name])
      ).rows.map((row) => row.operation_id),
    );
  }

  /** Takes one use of the first armed fault of a workspace that matches the operation (one replica at a time), or `undefined`. */
  async takeFault(name: string, operationId: OperationId): Promise<Fault | undefined> {
    return this.#transaction(async (client) => {
      const row = (
        await client.query<{ id: string; fault: Omit<Fault, "times">; times: number }>(
          "SELECT id, fault, times FROM sandbox_faults WHERE workspace = $1 AND (operation_id IS NULL OR operation_id = $2) ORDER BY id LIMIT 1 FOR UPDATE",
          [name, operationId],
        )
      ).rows[0];
      if (!row) return undefined;
      if (row.times > 1) {
        await client.query("UPDATE sandbox_faults SET times = times - 1 WHERE id = $1", [row.id]);
      } else {
        await client.query("DELETE FROM sandbox_faults WHERE id = $1", [row.id]);
        await notify(client, { workspace: name, change: "faults" });
      }
      return { ...row.fault, times: row.times - 1 };
    });
  }

  /** Disarms every fault of a workspace. */
  async clearFaults(name: string): Promise<void> {
    await this.#transaction(async (client) => {
      await client.query("DELETE FROM sandbox_faults WHERE workspace = $1", [name]);
      await notify(client, { workspace: name, change: "faults" });
    });
  }

  /** Closes the pool and the listening connection. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    await this.#listener?.end().catch(() => undefined);
    await this.#pool.end().catch(() => undefined);
  }
}

/** Announces a change to every replica: delivered when the transaction commits, never if it rolls back. */
async function notify(client: pg.PoolClient, change: WorkspaceChange | WorkspaceCreated): Promise<void> {
  await client.query("SELECT pg_notify($1, $2)", [channel, JSON.stringify({ ...change, announcedAt: Date.now() })]);
}

/**
 * What one workspace keeps in PostgreSQL: its fired events, its armed faults and its data source. It knows
 * the generation of the data in place, so a fire is kept only against it.
 */
export class PostgresWorkspaceStore implements WorkspaceStore {
  readonly #store: PostgresStore;
  readonly #name: string;
  /** The generation of the data in place in this replica. */
  generation: number;
  readonly fired: PostgresFiredEvents;
  readonly faults: PostgresFaults;

  constructor(store: PostgresStore, name: string, generation: number) {
    this.#store = store;
    this.#name = name;
    this.generation = generation;
    this.fired = new PostgresFiredEvents(store, name, () => this.generation);
    this.faults = new PostgresFaults(store, name);
  }

  async replaced(source: DataSource, swap: () => void): Promise<void> {
    const generation = await this.#store.replaceData(this.#name, source);
    this.adopted(generation, swap);
  }

  adopted(generation: number, swap: () => void): void {
    if (generation <= this.generation) return;
    this.generation = generation;
    swap();
  }

  faultsChanged(): void {
    this.faults.changed();
  }
}

/** A workspace's fired events in PostgreSQL: each fire kept against the generation of the data in place. */
export class PostgresFiredEvents implements FiredEventsStore {
  readonly #store: PostgresStore;
  readonly #name: string;
  readonly #generation: () => number;

  constructor(store: PostgresStore, name: string, generation: () => number) {
    this.#store = store;
    this.#name = name;
    this.#generation = generation;
  }

  record(event: FiredEventRecord): Promise<void> {
    return this.#store.recordFire(this.#name, this.#generation(), event);
  }

  page(filter: FiredEventsFilter, after: number, limit: number): Promise<FiredEventsPage> {
    return this.#store.firedEvents(this.#name, filter, after, limit);
  }

  clear(): Promise<void> {
    return this.#store.clearFiredEvents(this.#name);
  }
}

/** A workspace's armed faults in PostgreSQL, seen by every replica. */
export class PostgresFaults implements FaultStore {
  readonly #store: PostgresStore;
  readonly #name: string;
  /** The operations the workspace's armed faults target, as last read: a request takes a fault from the database only when one may match. */
  #targets: (OperationId | null)[] | undefined;
  /** The read of the targets under way, if any. */
  #reading: Promise<(OperationId | null)[]> | undefined;
  /** How many times the faults changed: a read started before the last change is not kept. */
  #changes = 0;

  constructor(store: PostgresStore, name: string) {
    this.#store = store;
    this.#name = name;
    this.changed();
  }

  async add(fault: FaultRequest): Promise<Fault> {
    const armed = armedFault(fault);
    await this.#store.addFault(this.#name, armed);
    this.changed();
    return { ...armed };
  }

  take(operationId: OperationId): Promise<Fault | undefined> {
    const targets = this.#targets;
    const mayMatch = (list: readonly (OperationId | null)[]) => list.some((target) => target === null || target === operationId);
    // Most requests meet no armed fault: they ask nothing of the database.
    if (targets !== undefined && !mayMatch(targets)) return noFault;
    return (async () => {
      if (targets === undefined && !mayMatch(await this.#readTargets())) return undefined;
      const fault = await this.#store.takeFault(this.#name, operationId);
      if (fault === undefined || fault.times === 0) this.changed();
      return fault;
    })();
  }

  async clear(): Promise<void> {
    await this.#store.clearFaults(this.#name);
    this.changed();
  }

  /** The targets of the armed faults, read once for every request that asks meanwhile. */
  #readTargets(): Promise<(OperationId | null)[]> {
    const changes = this.#changes;
    this.#reading ??= this.#store.faultTargets(this.#name).finally(() => (this.#reading = undefined));
    return this.#reading.then((read) => {
      // Kept unless the faults changed again while they were read.
      if (changes === this.#changes) this.#targets = read;
      return read;
    });
  }

  /**
   * The armed faults changed (here or on another replica): read again now, ahead of the requests, so a request
   * waits on the database only when it comes while they are read (and a request that is refused anyway, such as
   * an invalid fire, seldom does).
   */
  changed(): void {
    this.#targets = undefined;
    this.#changes++;
    this.#readTargets().catch(() => undefined);
  }
}
