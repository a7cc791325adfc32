/**
 * The store of a `--data` file: the default workspace's data source and fired events in the SQLite file
 * (`data-file.ts`, which opens and checks it); its armed faults and switches in memory (the command's flags
 * set them at each start).
 */
import type { DataSource } from "../model.ts";
import type { SandboxSwitches } from "../switches.ts";
import { openDataFile } from "./data-file.ts";
import { type FaultStore, MemoryFaults } from "./faults.ts";
import type { FiredEventsStore } from "./fired-events.ts";
import { defaultWorkspace, type SandboxStore, type WorkspaceRow, type WorkspaceStore } from "./store.ts";

/** The sandbox's store in a `--data` file, held by this process alone. */
export class DataFileStore implements SandboxStore {
  readonly #file: ReturnType<typeof openDataFile>["kept"];
  #main: WorkspaceRow;
  readonly #faults = new MemoryFaults();

  private constructor(file: ReturnType<typeof openDataFile>) {
    this.#file = file.kept;
    this.#main = { name: defaultWorkspace, source: file.source, switches: {}, generation: 1, createdAt: new Date().toISOString() };
  }

  /** Opens the file (see `openDataFile`: a refusal is one line naming it); a new file is given `first`. */
  static open(path: string, first: () => DataSource): DataFileStore {
    return new DataFileStore(openDataFile(path, first));
  }

  async createWorkspace(name: string, _source: DataSource, switches: Partial<SandboxSwitches>, tokenSha256: string | null): Promise<boolean> {
    if (name === defaultWorkspace && tokenSha256 === null) {
      // The file holds the default workspace's data already; its switches are the command's.
      this.#main = { ...this.#main, switches };
      return false;
    }
    throw new Error("Workspaces other than the default one are not kept in a --data file yet");
  }

  async listWorkspaces(): Promise<{ name: string; createdAt: string }[]> {
    return [{ name: this.#main.name, createdAt: this.#main.createdAt }];
  }

  async workspace(name: string): Promise<WorkspaceRow | undefined> {
    return name === defaultWorkspace ? this.#main : undefined;
  }

  async workspaceOfToken(): Promise<WorkspaceRow | undefined> {
    return undefined;
  }

  async setSwitches(name: string, switches: Partial<SandboxSwitches>): Promise<void> {
    if (name === defaultWorkspace) this.#main = { ...this.#main, switches };
  }

  async deleteWorkspace(): Promise<boolean> {
    return false;
  }

  workspaceStore(name: string, generation: number): WorkspaceStore {
    if (name !== defaultWorkspace) throw new Error(`No workspace named ${JSON.stringify(name)} in the --data file`);
    const file = this.#file;
    const faults = this.#faults;
    const store = this;
    return {
      generation,
      get fired(): FiredEventsStore {
        return file.fired;
      },
      get faults(): FaultStore {
        return faults;
      },
      async replaced(source, swap) {
        file.replaced(source, swap);
        store.#main = { ...store.#main, source, generation: store.#main.generation + 1 };
      },
      adopted: () => undefined,
      faultsChanged: () => undefined,
    };
  }

  async listen(): Promise<void> {}

  async ready(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.#file.close();
  }
}
