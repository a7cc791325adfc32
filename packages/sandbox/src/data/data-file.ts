import { accessSync, closeSync, constants, fstatSync, lstatSync, openSync, readSync, rmSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type DataSource, maxConversations, sandboxStates } from "../model.ts";
import { DatabaseFiredEvents, transaction } from "./database-fired-events.ts";
import { WatchedFile } from "./file-identity.ts";
import { fixtureDefects } from "./fixture.ts";
import { writeAheadLogProblem } from "./wal-check.ts";

/** Layout version of a `--data` file (SQLite's `user_version`); a file of layout 5 is migrated, one of another layout refused, naming both. */
export const dataLayout = 6;

/** SQLite's `application_id` of a sandbox database ("BCsb"): another program's SQLite file is told apart by it. */
const applicationId = 0x4243_7362;

/**
 * The schema of layout 5. STRICT tables and CHECK constraints hold every row to its shape, so a file whose
 * schema is exactly this one holds only rows of these shapes; the source is checked when it is read.
 */
const schema = `
  CREATE TABLE source (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    source TEXT NOT NULL CHECK (json_valid(source))
  ) STRICT;
  CREATE TABLE events (
    sequence INTEGER PRIMARY KEY,
    received_at TEXT NOT NULL,
    sent_conversation_id TEXT,
    sent_external_conversation_id TEXT,
    external_event_id TEXT NOT NULL,
    payload TEXT CHECK (payload IS NULL OR (json_valid(payload) AND json_type(payload) = 'object')),
    conversation_id TEXT NOT NULL
  ) STRICT;
`;

/**
 * What layout 6 adds to layout 5: the workspaces the administrator creates (`--admin-token`), each with its
 * token's SHA-256 (never the token), data source, switches and fired events (`data-file-store.ts` runs their statements).
 */
const workspaceSchema = `
  CREATE TABLE workspaces (
    name TEXT PRIMARY KEY,
    token_sha256 TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL CHECK (json_valid(source)),
    switches TEXT NOT NULL CHECK (json_valid(switches) AND json_type(switches) = 'object'),
    generation INTEGER NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT;
  CREATE TABLE workspace_events (
    workspace TEXT NOT NULL,
    sequence INTEGER NOT NULL,
    received_at TEXT NOT NULL,
    sent_conversation_id TEXT,
    sent_external_conversation_id TEXT,
    external_event_id TEXT NOT NULL,
    payload TEXT CHECK (payload IS NULL OR (json_valid(payload) AND json_type(payload) = 'object')),
    conversation_id TEXT NOT NULL,
    PRIMARY KEY (workspace, sequence)
  ) STRICT;
`;

/** The first bytes of every SQLite database file. */
const sqliteHeader = "SQLite format 3\u0000";

/** A `--data` file could not be used: the message is one line naming the file and the first problem. */
export class DataFileError extends Error {
  override name = "DataFileError";
}

/** The refusal of a write that failed for want of room, in words a person acts on, or `undefined` for another failure. */
function writeProblem(message: string): string | undefined {
  return /database or disk is full|SQLITE_FULL|ENOSPC/i.test(message)
    ? "cannot be written: no space left on device (the disk that holds it is full)"
    : undefined;
}

/** What a path names when it is not a regular file, for the refusal. */
function kindOf(stats: Stats): string | undefined {
  if (stats.isSymbolicLink()) return "a symbolic link (give the file it points to)";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return stats.isFile() ? undefined : "not a regular file";
}

/**
 * Checks what `--data` names before anything opens it: a regular file (never a device, FIFO, socket,
 * directory or symbolic link, which are refused without being opened), readable and writable by this
 * process, in a folder it can write (SQLite keeps its write-ahead log beside the file). Returns whether
 * the file holds anything yet.
 */
function checkPath(path: string): { empty: boolean } {
  const refuse = (problem: string): never => {
    throw new DataFileError(`--data ${path}: ${problem}`);
  };
  let stats: Stats | undefined;
  try {
    stats = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") refuse(`cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  const writable = (target: string, what: string) => {
    try {
      accessSync(target, constants.R_OK | constants.W_OK);
    } catch (error) {
      refuse(`${what} cannot be written by this process (${(error as NodeJS.ErrnoException).code}); give a file it can write`);
    }
  };
  writable(dirname(path), stats ? "its folder (where SQLite keeps the file's write-ahead log)" : "its folder");
  if (!stats) return { empty: true };
  const kind = kindOf(stats);
  if (kind) refuse(`is ${kind}, not a regular file; give the path of a sandbox data file (a new one is created)`);
  writable(path, "the file");
  if (stats.size === 0) return { empty: true };
  // Opened without following a link and without blocking, then checked again: the path may have changed since.
  const descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(descriptor).isFile()) refuse("is no longer a regular file");
    const head = Buffer.alloc(100);
    const read = readSync(descriptor, head, 0, head.length, 0);
    const text = head.subarray(0, read).toString("latin1");
    if (text.startsWith(sqliteHeader)) {
      // Before SQLite reads the log, which would drop its frames past a damaged one without a word.
      const logProblem = writeAheadLogProblem(path);
      if (logProblem) refuse(logProblem);
      return { empty: false };
    }
    if (/^\{"bot-conversation-sandbox":\s*4\b/.test(text)) {
      refuse(
        `is a data file of layout 4 (JSON lines), which this sandbox no longer reads (expected layout ${dataLayout}, a SQLite database); start with a new --data file (its events stay readable in it, one JSON object per line)`,
      );
    }
    return refuse(`is not a sandbox data file: it does not start with SQLite's header ("SQLite format 3")`);
  } finally {
    closeSync(descriptor);
  }
}

/** The schema's tables and indexes as SQLite lists them, to compare a file's with layout 5's. */
function schemaOf(database: DatabaseSync): string {
  return JSON.stringify(database.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name").all());
}

const expectedSchemas = new Map<number, string>();

/** A layout's schema (5 or 6) as SQLite lists it, from an empty database in memory. */
function layoutSchema(layout: number): string {
  let expected = expectedSchemas.get(layout);
  if (expected === undefined) {
    const memory = new DatabaseSync(":memory:");
    memory.exec(schema);
    if (layout >= 6) memory.exec(workspaceSchema);
    expected = schemaOf(memory);
    expectedSchemas.set(layout, expected);
    memory.close();
  }
  return expected;
}

/** The first problem of a data source read from a file, with the checks of `POST /_sandbox/reset` and `PUT /_sandbox/fixture`, or `undefined`. */
function sourceProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "the source is not an object";
  const source = value as Record<string, unknown>;
  if ("fixture" in source) {
    if (Object.keys(source).length !== 1) return "the source has a fixture and other fields";
    const [first] = fixtureDefects(source["fixture"]);
    return first ? `the fixture: ${first.path.replace(/^\$/, "$.fixture")}: ${first.message}` : undefined;
  }
  const extra = Object.keys(source).find((key) => !["seed", "conversations", "state"].includes(key));
  if (extra !== undefined) return `the source has an unknown field ${JSON.stringify(extra)}`;
  if (typeof source["seed"] !== "string") return `the source's seed must be a string; got ${JSON.stringify(source["seed"] ?? null)}`;
  const count = source["conversations"];
  if (!(typeof count === "number" && Number.isInteger(count) && count >= 0 && count <= maxConversations))
    return `the source's conversations must be an integer from 0 to ${maxConversations}; got ${JSON.stringify(count ?? null)}`;
  if (source["state"] !== undefined && !(sandboxStates as readonly unknown[]).includes(source["state"]))
    return `the source's state must be one of ${sandboxStates.join(", ")}; got ${JSON.stringify(source["state"])}`;
  return undefined;
}

/** The first problem SQLite's `quick_check` finds, or `undefined` for a whole file. */
function damageOf(database: DatabaseSync): string | undefined {
  try {
    const [first] = database.prepare("PRAGMA quick_check(1)").all() as { quick_check: string }[];
    // Its answer may span lines ("*** in database main ***", then the page): one line is kept.
    return first?.quick_check === "ok" ? undefined : (first?.quick_check ?? "no answer").replace("*** in database main ***", "").replace(/\s+/g, " ").trim();
  } catch (error) {
    return (error as Error).message;
  }
}

/** An open `--data` file: the default workspace's fired events and data source, and the database for the workspaces' tables. */
export interface DataFile {
  /** The SQLite database, held by this process alone. */
  readonly database: DatabaseSync;
  /** Throws a `NotKeptError` when the path no longer names the file opened: nothing is acknowledged then. */
  readonly stillThere: () => void;
  /** The default workspace's fired events. */
  readonly fired: DatabaseFiredEvents;
  /** Keeps the default workspace's new data source and forgets its fired events, together; then swaps. */
  replaced(source: DataSource, swap: () => void): void;
  /** Commits what waits, and closes the file. */
  close(): void;
}

/**
 * Opens a `--data` file: a SQLite database (through `node:sqlite`) in WAL mode, held with an exclusive
 * lock for as long as the sandbox runs, so a second sandbox on the same file is refused. A file that holds
 * data gives its source; a new (or empty) file is given `first` (in the transaction that creates its
 * tables). Returns the source and what keeps the state in the file. Every refusal is a `DataFileError` of
 * one line naming the file and the first problem.
 */
export function openDataFile(path: string, first: () => DataSource): { source: DataSource; kept: DataFile } {
  const { empty } = checkPath(path);
  const refuse = (problem: string): never => {
    throw new DataFileError(`--data ${path}: ${problem}`);
  };
  let database: DatabaseSync;
  try {
    database = new DatabaseSync(path, { timeout: 0 });
  } catch (error) {
    return refuse(`cannot be opened as a database (${(error as Error).message})`);
  }
  // The file opened, by device and inode: nothing is acknowledged once the path names another file, or none.
  const file = new WatchedFile(path);
  try {
    const inUse = (error: unknown) => {
      const message = (error as Error).message;
      if (/locked|busy/i.test(message)) return refuse("is in use by another sandbox (or another program): one sandbox per --data file");
      return refuse(writeProblem(message) ?? `is not a sandbox data file: ${message}`);
    };
    let version: { id: number; layout: number };
    let tables: string[];
    try {
      // Held from the first read until the sandbox closes the file: no other process writes it meanwhile.
      database.exec("PRAGMA locking_mode = EXCLUSIVE");
      version = {
        id: (database.prepare("PRAGMA application_id").get() as { application_id: number }).application_id,
        layout: (database.prepare("PRAGMA user_version").get() as { user_version: number }).user_version,
      };
      tables = (database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((row) => row.name);
    } catch (error) {
      return inUse(error);
    }
    // Every check reads: a file that is refused is left exactly as it was.
    const fresh = empty || (tables.length === 0 && version.id === 0 && version.layout === 0);
    if (!fresh) {
      if (version.id !== applicationId) {
        // Sandboxes before layout 4 kept a SQLite database of their own, without an application id.
        if (version.layout >= 1 && version.layout <= 3 && tables.includes("conversations"))
          refuse(`holds a sandbox database of another layout (version ${version.layout}, expected ${dataLayout}); start with a new --data file`);
        refuse(`is a SQLite database of another program (application_id ${version.id}, tables: ${tables.join(", ") || "none"}), not a sandbox data file`);
      }
      // Layout 5 (before workspaces) is migrated below: it gains the workspaces' tables.
      if (version.layout !== dataLayout && version.layout !== 5)
        refuse(`holds a sandbox database of another layout (version ${version.layout}, expected ${dataLayout}); start with a new --data file`);
      if (schemaOf(database) !== layoutSchema(version.layout))
        refuse(`holds a sandbox database of layout ${version.layout} whose tables were changed (their schema is not the sandbox's)`);
      // Every page read once (0.2 s for 1,000,000 events): a damaged file is refused now, not answered with 500s later.
      const damage = damageOf(database);
      if (damage) refuse(`is damaged (SQLite's quick_check: ${damage}); start with a new --data file`);
    }
    try {
      // Set before the first table and before WAL mode: deleted rows' pages can then be cut off the file.
      if (fresh) database.exec("PRAGMA auto_vacuum = INCREMENTAL");
      database.exec("PRAGMA journal_mode = WAL");
    } catch (error) {
      inUse(error);
    }
    let source: DataSource | undefined;
    try {
      // A commit appends to the write-ahead log without fsync; a checkpoint (which does fsync) comes every
      // 10,000 pages of log (40 MiB at most) rather than SQLite's 1,000: it made two thirds of a fire's cost.
      database.exec("PRAGMA synchronous = NORMAL");
      database.exec("PRAGMA wal_autocheckpoint = 10000");
      if (fresh) {
        transaction(database, () => {
          database.exec(schema);
          database.exec(workspaceSchema);
          database.exec(`PRAGMA application_id = ${applicationId}`);
          database.exec(`PRAGMA user_version = ${dataLayout}`);
          source = first();
          database.prepare("INSERT INTO source (id, source) VALUES (1, ?)").run(JSON.stringify(source));
        });
      } else {
        // A write at start: a file this process may not write (a read-only mount) is refused now, not at the first fire.
        // A file of layout 5 is given the workspaces' tables in it.
        transaction(database, () => {
          if (version.layout !== 5) return;
          database.exec(workspaceSchema);
          database.exec(`PRAGMA user_version = ${dataLayout}`);
        });
      }
    } catch (error) {
      refuse(writeProblem((error as Error).message) ?? `cannot be written (${(error as Error).message})`);
    }
    if (!fresh) {
      const rows = database.prepare("SELECT source FROM source").all() as { source: string }[];
      if (rows.length !== 1) refuse("holds no data source (the table source is empty)");
      const value = JSON.parse(rows[0]!.source) as unknown;
      const problem = sourceProblem(value);
      if (problem) refuse(`is not a sandbox data file: ${problem}`);
      source = value as DataSource;
    }
    // SQLite's write-ahead log beside the file, as it is now (written at start): on close, the log of a file no path
    // names any more is removed, or the next start would read its frames into the file put at the path.
    const log = new WatchedFile(`${path}-wal`);
    const fired = new DatabaseFiredEvents(database, path, () => file.check());
    const setSource = database.prepare("INSERT OR REPLACE INTO source (id, source) VALUES (1, ?)");
    const replaced = (next: DataSource, swap: () => void) => {
      // The fires recorded before the reset are committed first (and then deleted with the rest, in order).
      fired.flush();
      // Answered by what was committed: not committed, nothing changed (a 503); committed, the new data is swapped in.
      fired.commitChange("reset", () =>
        transaction(database, () => {
          fired.forget();
          setSource.run(JSON.stringify(next));
        }),
      );
      swap();
    };
    return {
      source: source!,
      kept: {
        database,
        stillThere: () => file.check(),
        fired,
        replaced,
        close: () => {
          if (!database.isOpen) return;
          fired.flush();
          const orphaned = !file.named;
          database.close();
          if (orphaned && log.named) rmSync(log.path, { force: true });
        },
      },
    };
  } catch (error) {
    database.close();
    throw error;
  }
}
