/** The store in process: every workspace, its fired events and its armed faults in memory (the browser's and `createSandbox`'s without `--data`). */
import type { DataSource } from "../model.ts";
import type { SandboxSwitches } from "../switches.ts";
import { type FaultStore, MemoryFaults } from "./faults.ts";
import { type FiredEventsStore, MemoryFiredEvents } from "./fired-events.ts";
import type { SandboxStore, WorkspaceRow, WorkspaceStore } from "./store.ts";

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

  async createWorkspace(name: string, source: DataSource, switches: Partial<SandboxSwitches>, tokenSha256: string | null): Promise<boolean> {
    if (this.#workspaces.has(name)) return false;
    const row: WorkspaceRow = { name, source, switches, generation: 1, createdAt: new Date().toISOString() };
    this.#workspaces.set(name, { row, tokenSha256, fired: new MemoryFiredEvents(), faults: new MemoryFaults() });
    return true;
  }

  async listWorkspaces(): Promise<{ name: string; createdAt: string }[]> {
    return [...this.#workspaces.values()].map(({ row }) => ({ name: row.name, createdAt: row.createdAt })).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  async workspace(name: string): Promise<WorkspaceRow | undefined> {
    return this.#workspaces.get(name)?.row;
  }

  async workspaceOfToken(tokenSha256: string): Promise<WorkspaceRow | undefined> {
    for (const workspace of this.#workspaces.values()) if (workspace.tokenSha256 === tokenSha256) return workspace.row;
    return undefined;
  }

  async setSwitches(name: string, switches: Partial<SandboxSwitches>): Promise<void> {
    const workspace = this.#workspaces.get(name);
    if (workspace) workspace.row = { ...workspace.row, switches };
  }

  async deleteWorkspace(name: string): Promise<boolean> {
    return this.#workspaces.delete(name);
  }

  workspaceStore(name: string, generation: number): WorkspaceStore {
    const workspace = this.#workspaces.get(name);
    if (!workspace) throw new Error(`No workspace named ${JSON.stringify(name)} in memory`);
    return new MemoryWorkspaceStore(workspace, generation);
  }

  async listen(): Promise<void> {}

  async ready(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}

/** One workspace's fired events and faults in memory; a reset keeps the new source in its row. */
class MemoryWorkspaceStore implements WorkspaceStore {
  readonly #workspace: MemoryWorkspace;
  generation: number;

  constructor(workspace: MemoryWorkspace, generation: number) {
    this.#workspace = workspace;
    this.generation = generation;
  }

  get fired(): FiredEventsStore {
    return this.#workspace.fired;
  }

  get faults(): FaultStore {
    return this.#workspace.faults;
  }

  async replaced(source: DataSource, swap: () => void): Promise<void> {
    // Cleared, kept and swapped in one turn (a store in memory forgets at once): no fire lands in between.
    const cleared = this.#workspace.fired.clear();
    const { row } = this.#workspace;
    this.#workspace.row = { ...row, source, generation: row.generation + 1 };
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
}
