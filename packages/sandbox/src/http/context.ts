import type { FaultStore } from "../data/faults.ts";
import type { WorkspacePage } from "../data/store.ts";
import type { DataSource } from "../model.ts";
import type { OperationContext } from "../operations/context.ts";
import type { SandboxSwitches } from "../switches.ts";
import type { RequestJournal } from "./journal.ts";

/** What every route of the app works with: one workspace, and the sandbox's workspaces around it. */
export interface SandboxContext extends OperationContext {
  /** The workspace's armed faults. */
  readonly faults: FaultStore;
  /** The journal of requests received. */
  readonly requests: RequestJournal;
  /**
   * Loads new data and swaps it in, clearing both journals; requests meanwhile are answered from the
   * old data. Loads run one after another, in the order asked. Resolves to the new counts.
   */
  replaceData(source: DataSource): Promise<{ bots: number; conversations: number }>;
  /** Keeps the workspace's new switches; the workspace is opened again with them before this resolves. */
  changeSwitches(switches: SandboxSwitches): Promise<void>;
  /** The sandbox's workspaces (the administrator's routes) and its readiness: the same from every workspace. */
  readonly workspaces: Workspaces;
}

/** A workspace to create, checked: its name, data source and switches. */
export interface WorkspaceCreation {
  readonly name: string;
  readonly source: DataSource;
  readonly switches: SandboxSwitches;
}

/** The sandbox's workspaces, as the administrator's routes and the readiness route see them. */
export interface Workspaces {
  /** Whether a token is the administrator token (`--admin-token`), compared in constant time; `undefined` when the sandbox has none. */
  isAdministrator(token: string): boolean | undefined;
  /** Creates a workspace, resolving to its token (answered once), or `undefined` when one of that name exists. */
  create(workspace: WorkspaceCreation): Promise<string | undefined>;
  /** Every workspace, by name. */
  list(after: string | undefined, limit: number): Promise<WorkspacePage>;
  /** Removes a workspace (never the default one); resolves to whether there was one. */
  remove(name: string): Promise<boolean>;
  /** Whether the store answers now and this process follows every change (readiness). */
  ready(): Promise<boolean>;
  /** The answer to a token of no workspace (the default workspace's 401): a request whose workspace was removed while it was under way gets it too. */
  noWorkspace(): Response;
}

/** The request line and headers Node's HTTP server reads at most (its default `maxHeaderSize`); beyond it, a 431. */
export const maxHeaderBytes = 16 * 1024;
