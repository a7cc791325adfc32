/**
 * The store contract: what a sandbox keeps beyond its in-memory search index, behind one asynchronous
 * interface whatever the backing, as WireMock's `Stores` serve one admin API. Three implementations, each
 * owning every statement it runs: `MemoryStore` (in process; the browser's too), `DataFileStore` (the
 * `--data` SQLite file) and `PostgresStore` (`--database-url`, shared by replicas). A store holds
 * workspaces: the default one (served by the `--token` tokens) and those the administrator creates, each
 * with its own data source, switches, armed faults and fired events.
 */
import type { DataSource } from "../model.ts";
import type { SandboxSwitches } from "../switches.ts";
import { type FaultStore, MemoryFaults } from "./faults.ts";
import { type FiredEventsStore, MemoryFiredEvents } from "./fired-events.ts";

/** The workspace the `--token` tokens (default `sandbox-token`) serve; created on first start from the command's data options. */
export const defaultWorkspace = "default";

/** A workspace as its store holds it. */
export interface WorkspaceRow {
  /** Its name. */
  readonly name: string;
  /** Its data source. */
  readonly source: DataSource;
  /** Its switches (the open points). */
  readonly switches: Partial<SandboxSwitches>;
  /**
   * Which creation of the name it is: a number fixed when it was created and never given to another creation, so a
   * workspace is its name and this number. A request bound to one creation acts on that one only: once the name is
   * removed (and perhaps created again), what it would change is refused as `WorkspaceGoneError`.
   */
  readonly incarnation: number;
  /** How many times its data was replaced, plus one: a replica follows a change of it. */
  readonly generation: number;
  /** When it was created, ISO 8601. */
  readonly createdAt: string;
}

/** A change committed by this process or another (a replica), as a store that is shared announces it. */
export interface WorkspaceChange {
  readonly workspace: string;
  readonly change: "data" | "faults" | "switches" | "deleted";
  /** When the process that made it announced it (`Date.now()` of its machine), for the notification lag; a shared store's. */
  readonly announcedAt?: number;
}

/** A workspace as a request is bound to it: its name and which creation of that name (see `WorkspaceRow.incarnation`). */
export type WorkspaceIdentity = Pick<WorkspaceRow, "name" | "incarnation">;

/**
 * A request bound to a workspace that was removed while it was under way (its name perhaps created again since):
 * nothing was changed, and it is answered as a request with a removed workspace's token is (the sandbox's 401).
 */
export class WorkspaceGoneError extends Error {
  override name = "WorkspaceGoneError";

  constructor(workspace: WorkspaceIdentity) {
    super(`The workspace ${JSON.stringify(workspace.name)} this request was sent to was removed while it was under way; nothing was changed.`);
  }
}

/**
 * What one workspace keeps in its store (its fired events, its armed faults, its data source and switches), bound
 * to one creation of it: every call acts on that creation only, and refuses with `WorkspaceGoneError` (nothing
 * changed) once it was removed, whatever now holds its name. This is where a request is bound to its workspace.
 */
export interface WorkspaceStore {
  /** Which creation of the workspace this is bound to. */
  readonly incarnation: number;
  /** The fired events. */
  readonly fired: FiredEventsStore;
  /** The armed faults. */
  readonly faults: FaultStore;
  /** The generation of the data in place in this process. */
  readonly generation: number;
  /**
   * The data was replaced: keeps the new source and forgets every fired event, together (refused, and
   * nothing changed, when that cannot be committed), then calls `swap` (which puts the new data in place)
   * in the same turn, so no fire is checked against data already replaced.
   */
  replaced(source: DataSource, swap: () => void): Promise<void>;
  /** Data of `generation`, kept by another process, is loaded: `swap` is called (in the same turn) unless newer data already is in place. */
  adopted(generation: number, swap: () => void): void;
  /** The armed faults changed elsewhere: read them again on the next request. */
  faultsChanged(): void;
  /** Keeps the workspace's new switches (announced to every replica of a shared store). */
  setSwitches(switches: Partial<SandboxSwitches>): Promise<void>;
}

/** A workspace as a list shows it: its name and when it was created. */
export interface WorkspaceListing {
  readonly name: string;
  readonly createdAt: string;
}

/** One page of the workspaces, in name order; `next` (the last name) when more follow. */
export interface WorkspacePage {
  readonly workspaces: WorkspaceListing[];
  readonly next?: string;
}

/** A page of `listings` (in any order) after the name `after`: the paging of a store that holds its workspaces' names in memory. */
export function pageOfWorkspaces(listings: readonly WorkspaceListing[], after: string | undefined, limit: number): WorkspacePage {
  const sorted = listings.filter(({ name }) => after === undefined || name > after).sort((a, b) => (a.name < b.name ? -1 : 1));
  const workspaces = sorted.slice(0, limit);
  return sorted.length > limit ? { workspaces, next: workspaces.at(-1)!.name } : { workspaces };
}

/** The sandbox's store: every workspace, and what each keeps. */
export interface SandboxStore {
  /** Creates a workspace unless one of that name exists; resolves to whether it was created. `tokenSha256` is `null` for the default one. */
  createWorkspace(name: string, source: DataSource, switches: Partial<SandboxSwitches>, tokenSha256: string | null): Promise<boolean>;
  /** At most `limit` workspaces in name order after the name `after` (from the first without it), without their data; `next` names the last one when more follow. */
  listWorkspaces(after: string | undefined, limit: number): Promise<WorkspacePage>;
  /** A workspace by name, or `undefined`. */
  workspace(name: string): Promise<WorkspaceRow | undefined>;
  /** The workspace whose token has this SHA-256, or `undefined`. */
  workspaceOfToken(tokenSha256: string): Promise<WorkspaceRow | undefined>;
  /** Removes a workspace and everything it holds; resolves to whether there was one. */
  deleteWorkspace(name: string): Promise<boolean>;
  /** What one creation of a workspace keeps, at the generation of the data loaded (a creation removed already: every call refused). */
  workspaceStore(row: Pick<WorkspaceRow, "name" | "incarnation" | "generation">): WorkspaceStore;
  /**
   * Calls `onChange` for each change another process commits (a store shared by replicas), `onReconnect`
   * when changes may have been missed, and `onDisconnect` once when it stops hearing them (the database
   * lost); a store of one process has none to tell.
   */
  listen(onChange: (change: WorkspaceChange) => void, onReconnect: () => void, onDisconnect?: () => void): Promise<void>;
  /** Whether the store answers now (readiness). */
  ready(): Promise<boolean>;
  /** Closes what is open (every acknowledged change is already kept). */
  close(): Promise<void>;
}

/**
 * A workspace's fired events and faults (`undefined` for a creation already removed) behind `stillThere`, checked first on every call: how a store of one process
 * (in memory, the `--data` file) binds them to one creation. Every removal is made by that process, so the check and
 * the change after it are one synchronous step: nothing of a removed creation's reaches one made after it.
 */
export function boundToCreation(
  kept: { readonly fired: FiredEventsStore; readonly faults: FaultStore } | undefined,
  stillThere: () => void,
): { readonly fired: FiredEventsStore; readonly faults: FaultStore } {
  // A creation removed before it was opened keeps nothing (`undefined`): every call is refused, and these stay empty.
  const { fired, faults } = kept ?? { fired: new MemoryFiredEvents(), faults: new MemoryFaults() };
  /** The answer of `act` once `stillThere` holds, or its refusal as a rejected promise (every call answers with a promise). */
  const checked = <T>(act: () => Promise<T>): Promise<T> => {
    try {
      stillThere();
    } catch (error) {
      return Promise.reject(error);
    }
    return act();
  };
  return {
    fired: {
      record: (event) => checked(() => fired.record(event)),
      page: (filter, after, limit) => checked(() => fired.page(filter, after, limit)),
      clear: () => checked(() => fired.clear()),
    },
    faults: {
      add: (fault) => checked(() => faults.add(fault)),
      take: (operationId) => checked(() => faults.take(operationId)),
      clear: () => checked(() => faults.clear()),
    },
  };
}
