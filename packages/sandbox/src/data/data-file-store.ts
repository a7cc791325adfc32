/**
 * The store of a `--data` file (`data-file.ts` opens and checks it): the default workspace's data source
 * and fired events, and every workspace the administrator creates (its token's SHA-256, data source,
 * switches and fired events), in the SQLite file, so they survive a restart. Armed faults stay in memory,
 * and the default workspace's switches are the command's flags at each start.
 */
import type { StatementSync } from "node:sqlite";
import type { DataSource } from "../model.ts";
import type { SandboxSwitches } from "../switches.ts";
import { type DataFile, openDataFile } from "./data-file.ts";
import { DatabaseFiredEvents, transaction } from "./database-fired-events.ts";
import { MemoryFaults } from "./faults.ts";
import { defaultWorkspace, type SandboxStore, type WorkspaceRow, type WorkspaceStore } from "./store.ts";

/** A workspace's row of the `workspaces` table. */
interface Row {
  name: string;
  source: string;
  switches: string;
  generation: number;
  created_at: string;
}

/** A row of the `workspaces` table as a workspace (its source and switches are JSON the table's CHECKs held valid). */
function workspaceOf(row: Row): WorkspaceRow {
  return {
    name: row.name,
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
  readonly #statements: Record<"insert" | "list" | "byName" | "byToken" | "switches" | "source" | "remove" | "removeEvents", StatementSync>;

  private constructor(path: string, file: ReturnType<typeof openDataFile>) {
    this.#file = file.kept;
    this.#main = { name: defaultWorkspace, source: file.source, switches: {}, generation: 1, createdAt: new Date().toISOString() };
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
    return inserted.changes === 1;
  }

  async listWorkspaces(): Promise<{ name: string; createdAt: string }[]> {
    const others = (this.#statements.list.all() as unknown as Pick<Row, "name" | "created_at">[]).map((row) => ({ name: row.name, createdAt: row.created_at }));
    return [{ name: this.#main.name, createdAt: this.#main.createdAt }, ...others].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  async workspace(name: string): Promise<WorkspaceRow | undefined> {
    if (name === defaultWorkspace) return this.#main;
    const row = this.#statements.byName.get(name) as Row | undefined;
    return row && workspaceOf(row);
  }

  async workspaceOfToken(tokenSha256: string): Promise<WorkspaceRow | undefined> {
    const row = this.#statements.byToken.get(tokenSha256) as Row | undefined;
    return row && workspaceOf(row);
  }

  async setSwitches(name: string, switches: Partial<SandboxSwitches>): Promise<void> {
    if (name === defaultWorkspace) this.#main = { ...this.#main, switches };
    else this.#change("switches' change", () => this.#statements.switches.run(JSON.stringify(switches), name));
  }

  async deleteWorkspace(name: string): Promise<boolean> {
    // Its fires still waiting are committed first, then removed with the rest.
    this.#kept.get(name)?.fired.flush();
    const removed = this.#change("workspace's removal", () => {
      this.#statements.removeEvents.run(name);
      return this.#statements.remove.run(name);
    });
    this.#kept.delete(name);
    return removed.changes === 1;
  }

  workspaceStore(name: string, generation: number): WorkspaceStore {
    let kept = this.#kept.get(name);
    if (kept === undefined) {
      kept = { fired: new DatabaseFiredEvents(this.#file.database, this.#path, this.#file.stillThere, name), faults: new MemoryFaults() };
      this.#kept.set(name, kept);
    }
    return new DataFileWorkspaceStore(name, generation, kept, (source, swap) => this.#replaced(name, kept.fired, source, swap));
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

/** One workspace of a `--data` file: its fired events in the file, its armed faults in memory. */
class DataFileWorkspaceStore implements WorkspaceStore {
  readonly name: string;
  generation: number;
  readonly fired: DatabaseFiredEvents;
  readonly faults: MemoryFaults;
  readonly #replace: (source: DataSource, swap: () => void) => void;

  constructor(
    name: string,
    generation: number,
    kept: { readonly fired: DatabaseFiredEvents; readonly faults: MemoryFaults },
    replace: (source: DataSource, swap: () => void) => void,
  ) {
    this.name = name;
    this.generation = generation;
    this.fired = kept.fired;
    this.faults = kept.faults;
    this.#replace = replace;
  }

  async replaced(source: DataSource, swap: () => void): Promise<void> {
    this.#replace(source, swap);
    this.generation++;
  }

  /** A file is held by one process: no other keeps data for it to adopt. */
  adopted(): void {}

  /** A file is held by one process: its faults change only here. */
  faultsChanged(): void {}
}
