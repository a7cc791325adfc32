/**
 * Fired events in PostgreSQL: written with group commit by one writer per store (`FireWriter`), each fire kept
 * against the generation of the data it was checked on, and read back in pages that never step past a fire still
 * being committed (`PostgresFiredEvents`).
 */
import type pg from "pg";
import {
  type FiredEventRecord,
  type FiredEventRow,
  type FiredEventsFilter,
  type FiredEventsPage,
  type FiredEventsStore,
  firedEventValues,
  pageOfRows,
  StoreUnavailableError,
} from "../fired-events.ts";
import { WorkspaceGoneError, type WorkspaceIdentity } from "../store.ts";
import { allowLongStatements, longStatement, reaching, transaction } from "./connection.ts";
import { creationThere, holdCreation } from "./creation.ts";

/**
 * The advisory lock a transaction that writes fires of a workspace holds, shared, from before its first row to
 * its commit (the pair of keys of `pg_advisory_xact_lock_shared(int, int)`: this class, the workspace's
 * `hashtext`): how a reader of the fired events finds the fires still in flight (`PostgresFiredEvents.page`).
 */
const firesLockClass = "hashtext('bot-conversation-sandbox fires')";

/** Fires one INSERT writes at most (six arrays of this many elements, one per column). */
const firesPerInsert = 500;

/**
 * The INSERT of a batch of fires, one text whatever the batch's size: the rows come as six arrays, one per column
 * (`$4` to `$9`), unnested in their order, so the statement is prepared once per connection (by its name) and
 * PostgreSQL parses and plans it once, not at every commit. The lock is taken before any row is joined, so before
 * the transaction has an id (its first row written).
 */
const insertFires = {
  name: "sandbox-insert-fires",
  text: `WITH fires_lock AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared(${firesLockClass}, hashtext($1)))
         INSERT INTO sandbox_fired_events (workspace, generation, received_at, sent_conversation_id, sent_external_conversation_id, external_event_id, payload, conversation_id)
         SELECT w.name, w.generation, v.received_at, v.sent_conversation_id, v.sent_external_conversation_id, v.external_event_id, v.payload::json, v.conversation_id
           FROM fires_lock, sandbox_workspaces w,
                unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
                  WITH ORDINALITY AS v(received_at, sent_conversation_id, sent_external_conversation_id, external_event_id, payload, conversation_id, position)
          WHERE w.name = $1 AND w.generation = $2 AND w.incarnation = $3
          ORDER BY v.position`,
};

/** The fires of one creation of a workspace and generation of its data recorded in one turn, and the promise all of them wait on. */
interface FireBatch {
  readonly workspace: WorkspaceIdentity;
  readonly generation: number;
  readonly events: FiredEventRecord[];
  readonly committed: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** A fire checked against data that another replica replaced meanwhile: refused with 503 (nothing kept), to be sent again. */
function dataChanged(): StoreUnavailableError {
  return new StoreUnavailableError("The workspace's data was replaced while this fire was checked; nothing was kept: send it again.", 0);
}

/** Deletes every fired event of a workspace, in the transaction of `client` (a statement given `replaceDataWaitMs`). */
export async function deleteFiredEvents(client: pg.PoolClient, name: string): Promise<void> {
  await client.query(longStatement("DELETE FROM sandbox_fired_events WHERE workspace = $1", [name]));
}

/** Writes the fires of every workspace of a store, with group commit. */
export class FireWriter {
  readonly #pool: pg.Pool;
  /** The fires recorded in this turn and not yet written, by workspace and generation. */
  readonly #pendingFires = new Map<string, FireBatch>();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /**
   * Keeps a fired event checked against the data of `generation`, with group commit: the fires recorded in one
   * turn of the event loop, per workspace and generation, are written by one multi-row INSERT (its own
   * transaction, so one commit; `synchronous_commit` as the server has it), and each resolves only once that
   * statement has committed. Refused (none of them kept) when the workspace's data is no longer of that
   * generation.
   */
  record(workspace: WorkspaceIdentity, generation: number, event: FiredEventRecord): Promise<void> {
    const key = `${workspace.incarnation}:${generation}:${workspace.name}`;
    let batch = this.#pendingFires.get(key);
    if (batch === undefined) {
      let settle!: { resolve: () => void; reject: (error: unknown) => void };
      const committed = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
      batch = { workspace, generation, events: [], committed, ...settle };
      this.#pendingFires.set(key, batch);
      // After this turn's I/O callbacks: every fire whose body arrived in this turn joins the one statement.
      if (this.#pendingFires.size === 1) setImmediate(this.#writePendingFires);
    }
    batch.events.push(event);
    return batch.committed;
  }

  /** Writes each pending batch of fires in one statement, settling its fires' promise once it committed (or failed). */
  readonly #writePendingFires = (): void => {
    const batches = [...this.#pendingFires.values()];
    this.#pendingFires.clear();
    for (const batch of batches) {
      void this.#insertFires(batch.workspace, batch.generation, batch.events).then(batch.resolve, batch.reject);
    }
  };

  /**
   * Inserts the fires in order, in statements of at most `firesPerInsert` rows; refused when that creation of the
   * workspace was removed (`WorkspaceGoneError`) or its data is no longer of `generation`.
   */
  async #insertFires(workspace: WorkspaceIdentity, generation: number, events: readonly FiredEventRecord[]): Promise<void> {
    const write = async (on: pg.Pool | pg.PoolClient, rows: readonly FiredEventRecord[]) => {
      // One array a column (`firedEventValues`' order), each holding that column of every row.
      const columns: (string | null)[][] = [[], [], [], [], [], []];
      for (const event of rows) {
        const row = firedEventValues(event);
        for (let column = 0; column < columns.length; column++) columns[column]!.push(row[column] ?? null);
      }
      return on.query({ ...insertFires, values: [workspace.name, generation, workspace.incarnation, ...columns] });
    };
    /** Why the fires were refused: that creation removed, or its data replaced. */
    const refusal = async () => ((await creationThere(this.#pool, workspace)) ? dataChanged() : new WorkspaceGoneError(workspace));
    if (events.length <= firesPerInsert) {
      const inserted = await reaching(() => write(this.#pool, events));
      if (inserted.rowCount !== events.length) throw await refusal();
      return;
    }
    // More than one statement holds: one transaction, so they are kept (or refused) together.
    await transaction(this.#pool, async (client) => {
      for (let start = 0; start < events.length; start += firesPerInsert) {
        const rows = events.slice(start, start + firesPerInsert);
        if ((await write(client, rows)).rowCount !== rows.length) throw await refusal();
      }
    });
  }
}

/** A workspace's fired events in PostgreSQL: each fire kept against the generation of the data in place. */
export class PostgresFiredEvents implements FiredEventsStore {
  readonly #pool: pg.Pool;
  readonly #writer: FireWriter;
  readonly #workspace: WorkspaceIdentity;
  readonly #generation: () => number;

  constructor(pool: pg.Pool, writer: FireWriter, workspace: WorkspaceIdentity, generation: () => number) {
    this.#pool = pool;
    this.#writer = writer;
    this.#workspace = workspace;
    this.#generation = generation;
  }

  record(event: FiredEventRecord): Promise<void> {
    return this.#writer.record(this.#workspace, this.#generation(), event);
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
  async page(filter: FiredEventsFilter, after: number, limit: number): Promise<FiredEventsPage> {
    const workspace = this.#workspace;
    const { name, incarnation } = workspace;
    const rows = await reaching(async () => {
      const [place] = (
        await this.#pool.query<{ horizon: string; cursor_xid: string; cursor_sequence: string; there: boolean }>(
          `SELECT least(
                    pg_snapshot_xmax(s),
                    (SELECT min(x) FROM pg_snapshot_xip(s) x
                       JOIN pg_locks t ON t.locktype = 'transactionid' AND t.granted AND t.mode = 'ExclusiveLock' AND t.transactionid = xid(x)
                       JOIN pg_locks a ON a.virtualtransaction = t.virtualtransaction AND a.locktype = 'advisory' AND a.granted
                                      AND a.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                                      AND a.classid = (${firesLockClass})::oid AND a.objid = hashtext($1)::oid AND a.objsubid = 2)
                  )::text AS horizon,
                  coalesce(c.xid, '0'::xid8)::text AS cursor_xid,
                  CASE WHEN c.xid IS NULL THEN 0 ELSE $2 END::text AS cursor_sequence,
                  EXISTS (SELECT 1 FROM sandbox_workspaces WHERE name = $1 AND incarnation = $3) AS there
             FROM pg_current_snapshot() s
             LEFT JOIN sandbox_fired_events c ON c.workspace = $1 AND c.sequence = $2`,
          [name, after, incarnation],
        )
      ).rows;
      if (!place!.there) throw new WorkspaceGoneError(workspace);
      return (
        await this.#pool.query<FiredEventRow>(
          `SELECT e.sequence, e.received_at, e.sent_conversation_id, e.sent_external_conversation_id, e.external_event_id, e.payload, e.conversation_id
             FROM sandbox_fired_events e JOIN sandbox_workspaces w ON w.name = e.workspace AND w.generation = e.generation AND w.incarnation = $8
            WHERE e.workspace = $1 AND (e.xid, e.sequence) > ($2::xid8, $3::bigint) AND e.xid < $4::xid8
              AND ($5::text IS NULL OR e.conversation_id = $5) AND ($6::text IS NULL OR e.external_event_id = $6)
            ORDER BY e.xid, e.sequence LIMIT $7`,
          [
            name,
            place!.cursor_xid,
            place!.cursor_sequence,
            place!.horizon,
            filter.conversationId ?? null,
            filter.externalEventId ?? null,
            limit + 1,
            incarnation,
          ],
        )
      ).rows;
    });
    return pageOfRows(rows, limit);
  }

  /** Forgets the workspace's fired events (refused when that creation was removed). */
  async clear(): Promise<void> {
    await reaching(() =>
      transaction(this.#pool, async (client) => {
        await holdCreation(client, this.#workspace);
        // Many events may take longer than a request's bound to delete: this transaction's own.
        await allowLongStatements(client);
        await deleteFiredEvents(client, this.#workspace.name);
      }),
    );
  }
}
