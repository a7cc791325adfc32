/** The fired events of a `--data` file: rows of its `events` table, written with group commit (`data-file.ts` opens the file). */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import {
  type FiredEventRecord,
  type FiredEventRow,
  type FiredEventsFilter,
  type FiredEventsPage,
  type FiredEventsStore,
  firedEventValues,
  NotKeptError,
  pageOfRows,
} from "./fired-events.ts";

/** Runs `work` inside one transaction: committed when it returns, rolled back when it throws. */
export function transaction<T>(database: DatabaseSync, work: () => T): T {
  database.exec("BEGIN IMMEDIATE");
  try {
    const result = work();
    database.exec("COMMIT");
    return result;
  } catch (error) {
    // A failed COMMIT may have ended the transaction already (SQLite rolls back on some I/O errors).
    if (database.isTransaction) database.exec("ROLLBACK");
    throw error;
  }
}

/**
 * Rows one INSERT statement writes at most: a batch of fires is written by one statement up to this many
 * (a statement per row cost a fire half a microsecond more), by several in one transaction beyond.
 */
const rowsPerInsert = 32;

/** A fire the `--data` file could not keep: its commit failed (the disk is full, the file was removed, …). */
export class FiredEventNotKeptError extends NotKeptError {
  override name = "FiredEventNotKeptError";
}

/** The fires recorded in one turn of the event loop, and the promise all of them wait on: settled by their one commit. */
interface Batch {
  readonly events: FiredEventRecord[];
  readonly committed: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * The fired events in the database, with group commit: the fires recorded in one turn of the event loop
 * are written in one transaction once that turn's I/O is handled (`setImmediate`), and each `record`
 * resolves only when that transaction is committed, so a fire is answered after its commit, never
 * before. Every read or change of the events (and a reset, and closing) first commits what is pending,
 * so it sees every fire recorded before it, in order.
 */
export class DatabaseFiredEvents implements FiredEventsStore {
  readonly #database: DatabaseSync;
  readonly #path: string;
  /** The INSERT of `n` rows at index `n - 1`, each prepared when first needed. */
  readonly #inserts: StatementSync[] = [];
  readonly #select: StatementSync;
  /** The last sequence number given: numbers go on across a clear while the sandbox runs (no AUTOINCREMENT, whose bookkeeping doubled each fire's write). */
  #last: number;
  /** The fires recorded and not yet committed, or `undefined`. */
  #pending: Batch | undefined;
  /** Throws a `NotKeptError` when the path no longer names the file opened (see `file-identity.ts`). */
  readonly #stillThere: () => void;
  /** Where the rows are: the default workspace's `events`, or one workspace's rows of `workspace_events`. */
  readonly #rows: { readonly table: string; readonly where: string; readonly workspace: string | undefined };

  /** The events of the default workspace (table `events`), or of the workspace named `workspace` (its rows of `workspace_events`). */
  constructor(database: DatabaseSync, path: string, stillThere: () => void = () => undefined, workspace?: string) {
    this.#database = database;
    this.#path = path;
    this.#stillThere = stillThere;
    this.#rows =
      workspace === undefined
        ? { table: "events", where: "true", workspace }
        : { table: "workspace_events", where: `workspace = ${quoted(workspace)}`, workspace };
    const { table, where } = this.#rows;
    this.#last = (database.prepare(`SELECT coalesce(max(sequence), 0) AS last FROM ${table} WHERE ${where}`).get() as { last: number }).last;
    this.#select = database.prepare(
      `SELECT * FROM ${table} WHERE ${where} AND sequence > :after AND (:conversationId IS NULL OR conversation_id = :conversationId)
         AND (:externalEventId IS NULL OR external_event_id = :externalEventId) ORDER BY sequence LIMIT :limit`,
    );
  }

  record(event: FiredEventRecord): Promise<void> {
    let batch = this.#pending;
    if (batch === undefined) {
      let settle: Pick<Batch, "resolve" | "reject"> | undefined;
      const committed = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
      batch = this.#pending = { events: [], committed, ...settle! };
      // After this turn's I/O callbacks: every fire whose body arrived in this turn joins the one commit.
      setImmediate(this.#commitPending);
    }
    batch.events.push(event);
    return batch.committed;
  }

  /**
   * Commits the pending fires in one transaction and settles their promise: resolved once committed, or
   * rejected with a `FiredEventNotKeptError` when the commit failed (then none of them is kept).
   */
  readonly #commitPending = (): void => {
    const batch = this.#pending;
    if (batch === undefined) return;
    this.#pending = undefined;
    const { events } = batch;
    try {
      // Up to `rowsPerInsert` fires: one statement, which is its own transaction. More: one transaction of several.
      if (events.length <= rowsPerInsert) this.#insertRows(events, 0, events.length);
      else
        transaction(this.#database, () => {
          for (let start = 0; start < events.length; start += rowsPerInsert) this.#insertRows(events, start, Math.min(start + rowsPerInsert, events.length));
        });
      this.#last += events.length;
      // Checked once the commit is made (one `lstat` per commit): a fire is acknowledged only when the file it landed
      // in is still the --data file. A commit into a file no path names any more is refused, and lost with that file.
      this.#stillThere();
    } catch (error) {
      const problem = (error as Error).message;
      // Said once per failed commit where the sandbox runs; each fire waiting on it is answered with the reason.
      console.error(`sandbox: --data ${this.#path}: a commit failed (${problem}); its ${batch.events.length} fire(s) were not kept and are answered 503`);
      batch.reject(error instanceof NotKeptError ? error : new FiredEventNotKeptError(`--data file: ${problem}`, { cause: error }));
      return;
    }
    batch.resolve();
  };

  /** Inserts `events[start]` up to (not including) `events[end]` in one statement, numbered on from the last sequence number given. */
  #insertRows(events: readonly FiredEventRecord[], start: number, end: number): void {
    const values: (string | number | null)[] = [];
    const { table, workspace } = this.#rows;
    let sequence = this.#last + start;
    for (let index = start; index < end; index++) {
      const event = events[index]!;
      if (workspace !== undefined) values.push(workspace);
      values.push(++sequence, ...firedEventValues(event));
    }
    const rows = end - start;
    const [columns, row] = workspace === undefined ? ["", "(?, ?, ?, ?, ?, ?, ?)"] : ["workspace, ", "(?, ?, ?, ?, ?, ?, ?, ?)"];
    this.#inserts[rows - 1] ??= this.#database.prepare(
      `INSERT INTO ${table} (${columns}sequence, received_at, sent_conversation_id, sent_external_conversation_id, external_event_id, payload, conversation_id) VALUES ${Array.from({ length: rows }, () => row).join(", ")}`,
    );
    this.#inserts[rows - 1]!.run(...values);
  }

  /** Commits what is pending, before anything else reads or changes the events. */
  flush(): void {
    this.#commitPending();
  }

  async page(filter: FiredEventsFilter, after: number, limit: number): Promise<FiredEventsPage> {
    this.flush();
    const rows = this.#select.all({
      after,
      conversationId: filter.conversationId ?? null,
      externalEventId: filter.externalEventId ?? null,
      limit: limit + 1,
    }) as unknown as FiredEventRow[];
    return pageOfRows(rows, limit);
  }

  /** Forgets every event in one commit; a commit that fails (or a file gone) is a `NotKeptError` and nothing changed. */
  async clear(): Promise<void> {
    this.flush();
    this.commitChange("clear", () => this.forget());
  }

  /** Deletes every event (inside a change: see `commitChange`). */
  forget(): void {
    this.#database.exec(`DELETE FROM ${this.#rows.table} WHERE ${this.#rows.where}`);
  }

  /**
   * Runs `work` (one transaction, or one statement, which is its own) as a change of the file: refused,
   * unchanged, when the file is gone or the commit fails, with a `NotKeptError` naming the file and the
   * reason; once committed, the space the deleted rows held is given back after the answer, as best effort.
   */
  commitChange(what: string, work: () => void): void {
    this.#stillThere();
    try {
      work();
    } catch (error) {
      throw new NotKeptError(`--data ${this.#path}: the ${what} could not be committed (${(error as Error).message}); nothing was changed`, { cause: error });
    }
    this.#stillThere();
    giveSpaceBackLater(this.#database, this.#path);
  }
}

/** After rows are deleted: the free pages are cut off the file, and the write-ahead log is emptied. */
function giveSpaceBack(database: DatabaseSync): void {
  database.exec("PRAGMA incremental_vacuum");
  database.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

/**
 * Gives the space back once the change it follows is answered: best effort, since that change is committed
 * whatever happens here (on a full disk the vacuum's own writes may fail); a failure is said where the
 * sandbox runs, and the space is given back by the next clear or reset.
 */
function giveSpaceBackLater(database: DatabaseSync, path: string): void {
  setImmediate(() => {
    if (!database.isOpen) return;
    try {
      giveSpaceBack(database);
    } catch (error) {
      console.error(
        `sandbox: --data ${path}: the space of deleted rows could not be given back (${(error as Error).message}); the change is kept, the file keeps its size until the next clear or reset`,
      );
    }
  });
}

/** A text as an SQL string literal (a workspace's name: lower-case letters, digits and dashes, by the control API's schema). */
function quoted(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
