/**
 * The store of a `--data` file (`data-file.ts` opens and checks it): the default workspace's data source
 * and fired events, and every workspace the administrator creates (its token's SHA-256, data source,
 * switches and fired events), in the SQLite file, so they survive a restart. Armed faults stay in memory,
 * and the default workspace's switches are the command's flags at each start. Which creation of its name a
 * workspace is (`WorkspaceRow.incarnation`) is numbered by this process, which holds the file alone: at its
 * creation, or when first read after a start (no request outlives the process that received it).
 */
import type { StatementSync } from "node:sqlite";
import type { DataSource } from "../model.ts";
import type { SandboxSwitches } from "../switches.ts";
import { type DataFile, openDataFile } from "./data-file.ts";
import { DatabaseFiredEvents, transaction } from "./database-fired-events.ts";
import { type FaultStore, MemoryFaults } from "./faults.ts";
import type { FiredEventsStore } from "./fired-events.ts";
import {
  boundToCreation,
  defaultWorkspace,
  pageOfWorkspaces,
  type SandboxStore,
  WorkspaceGoneError,
  type WorkspaceIdentity,
  type WorkspacePage,
  type WorkspaceRow,
  type WorkspaceStore,
} from "./store.ts";

/** A workspace's row of the `workspaces` table. */
interface Row {
  name: string;
  source: string;
  switches: string;
  generation: number;
  created_at: string;
}

/** A row of the `workspaces` table as a workspace of that creation (its source and switches are JSON the table's CHECKs held valid). */
function workspaceOf(row: Row, incarnation: number): WorkspaceRow {
  return {
    name: row.name,
    incarnation,
    source: JSON.parse(row.source) as DataSource,
    switches: JSON.parse(row.switches) as Partial<SandboxSwitches>,
    generation: row.generation,
    createdAt: row.created_at,
  };
}

/** The sandbox's store in a `--data` file, held by this process alone. */
export class DataFileStore implements SandboxStore {
  readonly #file: DataFile;
  readonly #path: string;
  /** The default workspace: its source is the file's, its switches the command's. */
  #main: WorkspaceRow;
  /** Each workspace's fired events (one per workspace, so its fires are committed in order) and armed faults, once opened. */
  readonly #kept = new Map<string, { readonly fired: DatabaseFiredEvents; readonly faults: MemoryFaults }>();
  /** Which creation of each name this process knows (see the file's comment), and the last number given. */
  readonly #incarnations = new Map<string, number>();
  #creations = 0;
  readonly #statements: Record<"insert" | "list" | "byName" | "byToken" | "switches" | "source" | "remove" | "removeEvents", StatementSync>;

  private constructor(path: string, file: ReturnType<typeof openDataFile>) {
    this.#file = file.kept;
    this.#main = {
      name: defaultWorkspace,
      incarnation: this.#incarnationOf(defaultWorkspace),
      source: file.source,
      switches: {},
      generation: 1,
      createdAt: new Date().toISOString(),
    };
    this.#kept.set(defaultWorkspace, { fired: file.kept.fired, faults: new MemoryFaults() });
    const prepare = (sql: string) => this.#file.database.prepare(sql);
    this.#statements = {
      insert: prepare(
        "INSERT OR IGNORE INTO workspaces (name, token_sha256, source, switches, generation, created_at) VALUES (?, ?, ?, ?, 1, strftime('%Y-%m-%dT%H:%M:%fZ'))",
      ),
      list: prepare("SELECT name, created_at FROM workspaces ORDER BY name"),
      byName: prepare("SELECT name, source, switches, generation, created_at FROM workspaces WHERE name = ?"),
      byToken: prepare("SELECT name, source, switches, generation, created_at FROM workspaces WHERE token_sha256 = ?"),
      switches: prepare("UPDATE workspaces SET switches = ? WHERE name = ?"),
      source: prepare("UPDATE workspaces SET source = ?, generation = generation + 1 WHERE name = ?"),
      remove: prepare("DELETE FROM workspaces WHERE name = ?"),
      removeEvents: prepare("DELETE FROM workspace_events WHERE workspace = ?"),
    };
    this.#path = path;
  }

  /** Opens the file (see `openDataFile`: a refusal is one line naming it); a new file is given `first`. */
  static open(path: string, first: () => DataSource): DataFileStore {
    return new DataFileStore(path, openDataFile(path, first));
  }

  /** The number of the creation of `name` this process knows, given now when it knows none. */
  #incarnationOf(name: string): number {
    let incarnation = this.#incarnations.get(name);
    if (incarnation === undefined) {
      incarnation = ++this.#creations;
      this.#incarnations.set(name, incarnation);
    }
    return incarnation;
  }

  /** Throws a `WorkspaceGoneError` unless `workspace` is the creation of its name the file holds now. */
  #stillThere(workspace: WorkspaceIdentity): void {
    if (this.#incarnations.get(workspace.name) !== workspace.incarnation) throw new WorkspaceGoneError(workspace);
  }

  /** Runs a change of the file: refused (a `NotKeptError`, nothing changed) when the file is gone or the commit fails. */
  #change<T>(what: string, work: () => T): T {
    let result: T | undefined;
    this.#file.fired.commitChange(what, () => {
      result = transaction(this.#file.database, work);
    });
    return result as T;
  }

  async createWorkspace(name: string, source: DataSource, switches: Partial<SandboxSwitches>, tokenSha256: string | null): Promise<boolean> {
    if (name === defaultWorkspace) {
      // The file holds the default workspace's data already (given at its creation); its switches are the command's.
      this.#main = { ...this.#main, switches };
      return false;
    }
    const inserted = this.#change("workspace's creation", () =>
      this.#statements.insert.run(name, tokenSha256, JSON.stringify(source), JSON.stringify(switches)),
    );
    if (inserted.changes !== 1) return false;
    // A new creation of the name: numbered now, never as one removed before it.
    this.#incarnations.delete(name);
    this.#incarnationOf(name);
    return true;
  }

  async listWorkspaces(after: string | undefined, limit: number): Promise<WorkspacePage> {
    const others = (this.#statements.list.all() as unknown as Pick<Row, "name" | "created_at">[]).map((row) => ({ name: row.name, createdAt: row.created_at }));
    return pageOfWorkspaces([{ name: this.#main.name, createdAt: this.#main.createdAt }, ...others], after, limit);
  }

  async workspace(name: string): Promise<WorkspaceRow | undefined> {
    if (name === defaultWorkspace) return this.#main;
    const row = this.#statements.byName.get(name) as Row | undefined;
    return row && workspaceOf(row, this.#incarnationOf(row.name));
  }

  async workspaceOfToken(tokenSha256: string): Promise<WorkspaceRow | undefined> {
    const row = this.#statements.byToken.get(tokenSha256) as Row | undefined;
    return row && workspaceOf(row, this.#incarnationOf(row.name));
  }

  async deleteWorkspace(name: string): Promise<boolean> {
    // Its fires still waiting are committed first, then removed with the rest.
    this.#kept.get(name)?.fired.flush();
    const removed = this.#change("workspace's removal", () => {
      this.#statements.removeEvents.run(name);
      return this.#statements.remove.run(name);
    });
    this.#kept.delete(name);
    // Every request still bound to this creation is refused from now on.
    this.#incarnations.delete(name);
    return removed.changes === 1;
  }

  workspaceStore(row: Pick<WorkspaceRow, "name" | "incarnation" | "generation">): WorkspaceStore {
    const { name } = row;
    const stillThere = () => this.#stillThere(row);
    let kept = this.#kept.get(name);
    // A creation removed before it is opened keeps nothing: every call is refused.
    if (this.#incarnations.get(name) !== row.incarnation) kept = undefined;
    else if (kept === undefined) {
      kept = { fired: new DatabaseFiredEvents(this.#file.database, this.#path, this.#file.stillThere, name), faults: new MemoryFaults() };
      this.#kept.set(name, kept);
    }
    const fired = kept?.fired;
    return new DataFileWorkspaceStore(row, boundToCreation(kept, stillThere), {
      replace: (source, swap) => {
        stillThere();
        // A creation still there was given its fired events above.
        if (fired === undefined) throw new WorkspaceGoneError(row);
        this.#replaced(name, fired, source, swap);
      },
      setSwitches: (switches) => {
        stillThere();
        if (name === defaultWorkspace) this.#main = { ...this.#main, switches };
        else this.#change("switches' change", () => this.#statements.switches.run(JSON.stringify(switches), name));
      },
    });
  }

  /** Keeps a workspace's new data source and forgets its fired events, in one commit (refused, nothing changed, when it cannot be); then swaps. */
  #replaced(name: string, fired: DatabaseFiredEvents, source: DataSource, swap: () => void): void {
    if (name === defaultWorkspace) {
      this.#file.replaced(source, swap);
      this.#main = { ...this.#main, source, generation: this.#main.generation + 1 };
      return;
    }
    // The fires recorded before the reset are committed first (and then deleted with the rest, in order).
    fired.flush();
    this.#change("reset", () => {
      fired.forget();
      this.#statements.source.run(JSON.stringify(source), name);
    });
    swap();
  }

  async listen(): Promise<void> {}

  /** Ready while the file is open and its path still names it. */
  async ready(): Promise<boolean> {
    try {
      this.#file.stillThere();
      return this.#file.database.isOpen;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    for (const [name, { fired }] of this.#kept) if (name !== defaultWorkspace) fired.flush();
    this.#file.close();
  }
}

/** One creation of a workspace of a `--data` file: its fired events in the file, its armed faults in memory. */
class DataFileWorkspaceStore implements WorkspaceStore {
  readonly incarnation: number;
  generation: number;
  readonly fired: FiredEventsStore;
  readonly faults: FaultStore;
  readonly #changes: { replace(source: DataSource, swap: () => void): void; setSwitches(switches: Partial<SandboxSwitches>): void };

  constructor(
    row: Pick<WorkspaceRow, "incarnation" | "generation">,
    kept: { readonly fired: FiredEventsStore; readonly faults: FaultStore },
    changes: { replace(source: DataSource, swap: () => void): void; setSwitches(switches: Partial<SandboxSwitches>): void },
  ) {
    this.incarnation = row.incarnation;
    this.generation = row.generation;
    this.fired = kept.fired;
    this.faults = kept.faults;
    this.#changes = changes;
  }

  async replaced(source: DataSource, swap: () => void): Promise<void> {
    this.#changes.replace(source, swap);
    this.generation++;
  }

  /** A file is held by one process: no other keeps data for it to adopt. */
  adopted(): void {}

  /** A file is held by one process: its faults change only here. */
  faultsChanged(): void {}

  async setSwitches(switches: Partial<SandboxSwitches>): Promise<void> {
    this.#changes.setSwitches(switches);
  }
}
