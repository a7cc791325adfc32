/** The store in process: every workspace, its fired events and its armed faults in memory (the browser's and `createSandbox`'s without `--data`). */
import type { DataSource } from "../model.ts";
import type { SandboxSwitches } from "../switches.ts";
import { type FaultStore, MemoryFaults } from "./faults.ts";
import { type FiredEventsStore, MemoryFiredEvents } from "./fired-events.ts";
import {
  boundToCreation,
  pageOfWorkspaces,
  type SandboxStore,
  WorkspaceGoneError,
  type WorkspacePage,
  type WorkspaceRow,
  type WorkspaceStore,
} from "./store.ts";

/** A workspace in memory: its row, and what it keeps, for as long as the process runs. */
interface MemoryWorkspace {
  row: WorkspaceRow;
  readonly tokenSha256: string | null;
  readonly fired: FiredEventsStore;
  readonly faults: FaultStore;
}

/** Every workspace in memory: gone when the process ends. */
export class MemoryStore implements SandboxStore {
  readonly #workspaces = new Map<string, MemoryWorkspace>();
  /** The last creation's number: each creation gets the next. */
  #creations = 0;

  async createWorkspace(name: string, source: DataSource, switches: Partial<SandboxSwitches>, tokenSha256: string | null): Promise<boolean> {
    if (this.#workspaces.has(name)) return false;
    const row: WorkspaceRow = { name, incarnation: ++this.#creations, source, switches, generation: 1, createdAt: new Date().toISOString() };
    this.#workspaces.set(name, { row, tokenSha256, fired: new MemoryFiredEvents(), faults: new MemoryFaults() });
    return true;
  }

  async listWorkspaces(after: string | undefined, limit: number): Promise<WorkspacePage> {
    return pageOfWorkspaces(
      [...this.#workspaces.values()].map(({ row }) => ({ name: row.name, createdAt: row.createdAt })),
      after,
      limit,
    );
  }

  async workspace(name: string): Promise<WorkspaceRow | undefined> {
    return this.#workspaces.get(name)?.row;
  }

  async workspaceOfToken(tokenSha256: string): Promise<WorkspaceRow | undefined> {
    for (const workspace of this.#workspaces.values()) if (workspace.tokenSha256 === tokenSha256) return workspace.row;
    return undefined;
  }

  async deleteWorkspace(name: string): Promise<boolean> {
    return this.#workspaces.delete(name);
  }

  workspaceStore(row: Pick<WorkspaceRow, "name" | "incarnation" | "generation">): WorkspaceStore {
    const current = (): MemoryWorkspace => {
      const workspace = this.#workspaces.get(row.name);
      if (workspace?.row.incarnation !== row.incarnation) throw new WorkspaceGoneError(row);
      return workspace;
    };
    const workspace = this.#workspaces.get(row.name);
    return new MemoryWorkspaceStore(row, boundToCreation(workspace?.row.incarnation === row.incarnation ? workspace : undefined, current), current);
  }

  async listen(): Promise<void> {}

  async ready(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}

/** One creation of a workspace in memory: its fired events and faults, its row (a reset keeps the new source in it). */
class MemoryWorkspaceStore implements WorkspaceStore {
  readonly incarnation: number;
  generation: number;
  readonly fired: FiredEventsStore;
  readonly faults: FaultStore;
  /** The workspace of this creation, or a `WorkspaceGoneError` thrown once it was removed. */
  readonly #workspace: () => MemoryWorkspace;

  constructor(
    row: Pick<WorkspaceRow, "incarnation" | "generation">,
    kept: { readonly fired: FiredEventsStore; readonly faults: FaultStore },
    workspace: () => MemoryWorkspace,
  ) {
    this.incarnation = row.incarnation;
    this.generation = row.generation;
    this.fired = kept.fired;
    this.faults = kept.faults;
    this.#workspace = workspace;
  }

  async replaced(source: DataSource, swap: () => void): Promise<void> {
    const workspace = this.#workspace();
    // Cleared, kept and swapped in one turn (a store in memory forgets at once): no fire lands in between.
    const cleared = workspace.fired.clear();
    const { row } = workspace;
    workspace.row = { ...row, source, generation: row.generation + 1 };
    this.generation = row.generation + 1;
    swap();
    await cleared;
  }

  adopted(generation: number, swap: () => void): void {
    if (generation <= this.generation) return;
    this.generation = generation;
    swap();
  }

  faultsChanged(): void {}

  async setSwitches(switches: Partial<SandboxSwitches>): Promise<void> {
    const workspace = this.#workspace();
    workspace.row = { ...workspace.row, switches };
  }
}
