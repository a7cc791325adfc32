import type { Context } from "hono";
import type { ExchangeReplay } from "../data/exchanges.ts";
import type { FaultStore } from "../data/faults.ts";
import type { Random } from "../data/random.ts";
import type { WorkspacePage } from "../data/store.ts";
import type { DataSource } from "../model.ts";
import type { OperationContext } from "../operations/context.ts";
import type { SandboxSwitches } from "../switches.ts";
import type { RequestJournal } from "./journal.ts";

/**
 * What the server hands the app with a request (Node's raw header list, for the journal; whether it came over the
 * network, for the control API's Host guard; how the transport adds a header to the answer it will send, which costs
 * less than changing a `Response`'s headers), and what the pipeline keeps on the request's context: the workspace its
 * token picked (`undefined` for none, or a route whose credential names no workspace), its request id, and whether
 * a recording answered it.
 */
export type AppEnv = {
  Bindings: {
    rawHeaders?: readonly string[];
    network?: boolean;
    setResponseHeader?: (name: string, value: string) => void;
  };
  Variables: { workspace: ServedWorkspace | undefined; requestId: string; replayed: boolean };
};

/** What a route answers with, given the request's context. */
export type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;

/** A part of the pipeline around a route: it answers itself, or hands the request to `next` and may act on its answer (`compose.ts`). */
export type Middleware = (c: Context<AppEnv>, next: Handler) => Response | Promise<Response>;

/** The handler of an operation, given the context of the workspace the request is for (the default one's when its route names none). */
export type OperationHandler = (context: SandboxContext, c: Context<AppEnv>) => Response | Promise<Response>;

/** A workspace as the pipeline serves it: its name and what its routes work with. */
export interface ServedWorkspace {
  /** Its name in the store (`default` for the `--token` tokens'). */
  readonly name: string;
  /** What its routes work with. */
  readonly context: SandboxContext;
}

/** The sandbox the one app serves: its workspaces by token, the administrator token, and a recording to replay. */
export interface SandboxHost {
  /** The default workspace now (opened again when its switches change): the one the `--token` tokens pick, and every route's without a workspace. */
  main(): ServedWorkspace;
  /** The workspace the administrator created whose token this is (found by the token's SHA-256, loaded on first use), or `undefined` for none. */
  createdWorkspaceOf(token: string): Promise<ServedWorkspace | undefined>;
  /** The administrator token (`--admin-token`), or `undefined` when the sandbox has none. */
  readonly adminToken: string | undefined;
  /** A recording to replay exactly, for requests of the default workspace (`data/exchanges.ts`). */
  readonly replay?: ExchangeReplay | undefined;
}

/**
 * Who observes the requests of a sandbox (`observe/`): the middleware it puts around every route, outermost first
 * (request id, log line and metrics), made once per route with the route's operation label, and the handlers of the
 * operations it answers itself (the metrics). A sandbox without one (the MSW handlers') serves no such operation.
 */
export interface RequestObserver {
  /** The middleware around a route whose requests are labelled `operation` (an operationId, `index` or `none`). */
  middlewareOf(operation: string): readonly Middleware[];
  /** Handlers by operationId, for operations of the control API that only an observed sandbox serves. */
  readonly handlers: Readonly<Record<string, Handler>>;
  /** Whether the sandbox is draining (see `Workspaces.draining`). */
  draining(): boolean;
}

/** What every route of the app works with: one workspace, and the sandbox's workspaces around it. */
export interface SandboxContext extends OperationContext {
  /** The workspace's armed faults. */
  readonly faults: FaultStore;
  /** The journal of requests received. */
  readonly requests: RequestJournal;
  /** The draws of the latency option's ranges (seeded by the options' seed). */
  readonly latencyDraws: Random;
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
  /** Creates a workspace, resolving to its token (answered once), or `undefined` when one of that name exists. */
  create(workspace: WorkspaceCreation): Promise<string | undefined>;
  /** Every workspace, by name. */
  list(after: string | undefined, limit: number): Promise<WorkspacePage>;
  /** Removes a workspace (never the default one); resolves to whether there was one. */
  remove(name: string): Promise<boolean>;
  /** Whether the store answers now and this process follows every change (readiness). */
  ready(): Promise<boolean>;
  /** Whether the sandbox is stopping (its readiness then `503`, its connections closed once they answered). */
  draining(): boolean;
}

/** The request line and headers Node's HTTP server reads at most (its default `maxHeaderSize`); beyond it, a 431. */
export const maxHeaderBytes = 16 * 1024;
