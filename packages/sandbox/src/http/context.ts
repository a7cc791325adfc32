/**
 * The pipeline's types: a route's handler and middleware, the workspaces it serves, and the request and its context,
 * of our own rather than Hono's `Context` and the Fetch `Request`: what every middleware and handler reads (method,
 * URL, path, a header, a path parameter), made by a transport's adapter (`node-adapter.ts` from Node's `IncomingMessage`,
 * `fetch-adapter.ts` from a `Request`) and read lazily, so a GET answered over HTTP makes no `Request`, no `Headers`
 * and no `URL`. A body is read by the transport itself (`body`, a `RequestBody`): over Node's HTTP server, from its
 * `IncomingMessage`, with no `Request` or web stream; a Fetch `Request` (`raw`) is made only for a recording's replay.
 */

import type { ExchangeReplay } from "../data/exchanges.ts";
import type { FaultStore } from "../data/faults.ts";
import type { Random } from "../data/random.ts";
import type { WorkspacePage } from "../data/store.ts";
import type { DataSource } from "../model.ts";
import type { Answer } from "../operations/answer.ts";
import type { OperationContext } from "../operations/context.ts";
import type { RequestBody } from "../operations/request.ts";
import type { SandboxSwitches } from "../switches.ts";
import type { RequestJournal } from "./journal.ts";

/** What a route answers with, given the request's context (`RequestContext`). */
export type Handler = (c: RequestContext) => Answer | Promise<Answer>;

/** A part of the pipeline around a route: it answers itself, or hands the request to `next` and may act on its answer (`compose.ts`). */
export type Middleware = (c: RequestContext, next: Handler) => Answer | Promise<Answer>;

/** The handler of an operation, given the context of the workspace the request is for (the default one's when its route names none). */
export type OperationHandler = (context: SandboxContext, c: RequestContext) => Answer | Promise<Answer>;

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

/** A request as a transport hands it to the pipeline. */
export interface TransportRequest {
  /** The method, in upper case. */
  readonly method: string;
  /** The absolute URL (made on first use). */
  readonly url: string;
  /** The request target's path and query as sent (`/api/v2/channels/conversations?pageSize=5`). */
  readonly target: string;
  /** A header's value, by its name in lower case (a repeated header's values joined by `, `, as `Headers` joins them), or `undefined`. */
  header(name: string): string | undefined;
  /** The headers as received, for the journal: Node's raw list (name, value, name, value…) or a `Headers`. */
  readonly rawHeaders: readonly string[] | Headers;
  /** Its body, read by the transport itself (see `RequestBody`). */
  readonly body: RequestBody;
  /** The request as a Fetch `Request` (made on first use): only for a recording's replay (`data/exchanges.ts`), which clones it. */
  readonly raw: Request;
  /** Aborted when the client gives up on the request (made on first use). */
  readonly signal: AbortSignal;
  /** Whether it came over the network (the control API's Host guard applies), not from a caller in process. */
  readonly network: boolean;
}

/** A request's path from its target: up to the query, percent-decoded where it can be (as the log and the journal show it). */
export function pathOfTarget(target: string): string {
  const query = target.indexOf("?");
  const path = query < 0 ? target : target.slice(0, query);
  return path.includes("%") ? pathOfEncoded(path) : path;
}

/** The pathname as sent (without the query), percent-encoding kept, as the route table matches it. */
export function encodedPathOfTarget(target: string): string {
  const query = target.indexOf("?");
  return query < 0 ? target : target.slice(0, query);
}

function pathOfEncoded(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** What the pipeline keeps on a request's context (`c.get`, `c.set`). */
export interface ContextVariables {
  /** The workspace its token picked: `undefined` for none, or a route whose credential names no workspace. */
  workspace: ServedWorkspace | undefined;
  /** Its request id (`observe/`). */
  requestId: string;
  /** Whether a recording answered it. */
  replayed: boolean;
}

/** The request as the pipeline's parts read it: the transport's, with its path and the path parameters its route matched. */
export interface SandboxRequest {
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  /** The request target (path and query) as sent. */
  readonly target: string;
  /** The path, percent-decoded. */
  readonly path: string;
  /** A header by its name in lower case. */
  header(name: string): string | undefined;
  /** A path parameter of the route matched, decoded. */
  param(name: string): string | undefined;
  /** Its body (see `TransportRequest.body`). */
  readonly body: RequestBody;
  /** The request as a Fetch `Request`: only for a recording's replay (see `TransportRequest.raw`). */
  readonly raw: Request;
  /** Aborted when the client gives up. */
  readonly signal: AbortSignal;
  /** The headers as received (see `TransportRequest.rawHeaders`). */
  readonly rawHeaders: readonly string[] | Headers;
}

const noParameters: Readonly<Record<string, string>> = Object.freeze({});

/** The request the parts read: the transport's, with the path parameters its route matched (read through the prototype's getters, made once). */
class PipelineRequest implements SandboxRequest {
  readonly #transport: TransportRequest;
  /** Set by the route table once it matched the request's route. */
  pathParameters: Readonly<Record<string, string>> = noParameters;
  #path: string | undefined;

  constructor(transport: TransportRequest) {
    this.#transport = transport;
  }
  get method(): string {
    return this.#transport.method;
  }
  get url(): string {
    return this.#transport.url;
  }
  get target(): string {
    return this.#transport.target;
  }
  get path(): string {
    this.#path ??= pathOfTarget(this.#transport.target);
    return this.#path;
  }
  header(name: string): string | undefined {
    return this.#transport.header(name);
  }
  param(name: string): string | undefined {
    return this.pathParameters[name];
  }
  get body(): RequestBody {
    return this.#transport.body;
  }
  get raw(): Request {
    return this.#transport.raw;
  }
  get signal(): AbortSignal {
    return this.#transport.signal;
  }
  get rawHeaders(): readonly string[] | Headers {
    return this.#transport.rawHeaders;
  }
}

/** One request's context in the pipeline: its request, what the parts keep on it, and headers to add to whatever it is answered with. */
export class RequestContext {
  readonly req: PipelineRequest;
  /** Whether the request came over the network (the control API's Host guard). */
  readonly network: boolean;
  /** Headers the transport adds to the answer it writes (flat: name, value…), e.g. the request id: cheaper than copying an answer. */
  readonly answerHeaders: string[] = [];
  readonly #variables: ContextVariables = { workspace: undefined, requestId: "", replayed: false };
  /** When the request came in (`performance.now()`), read once for every part that times it. */
  readonly #receivedMs = performance.now();
  #answeredAfterMs: number | undefined;

  constructor(transport: TransportRequest) {
    this.network = transport.network;
    this.req = new PipelineRequest(transport);
  }

  /**
   * Milliseconds from the request's arrival to its answer, read from the clock when a part first asks once it has the
   * answer (the journal's, then the observer's log line and metrics): one time for every part, and one reading of the
   * clock rather than one a part.
   */
  answeredAfterMs(): number {
    this.#answeredAfterMs ??= performance.now() - this.#receivedMs;
    return this.#answeredAfterMs;
  }

  /** A variable of the request (see `ContextVariables`). */
  get<Key extends keyof ContextVariables>(key: Key): ContextVariables[Key] {
    return this.#variables[key];
  }

  /** Keeps a variable on the request. */
  set<Key extends keyof ContextVariables>(key: Key, value: ContextVariables[Key]): void {
    this.#variables[key] = value;
  }

  /** Adds a header (name in lower case) to the answer, whatever it is. */
  header(name: string, value: string): void {
    this.answerHeaders.push(name, value);
  }
}
