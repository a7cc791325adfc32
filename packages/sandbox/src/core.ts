/**
 * The sandbox over one store, the same in every mode: in memory, with a `--data` file, or on PostgreSQL
 * shared by replicas. Workspaces are the store's: the default one (the `--token` tokens) and those the
 * administrator creates (`--admin-token`), each served by the one app (`http/app.ts`) over its own data; a
 * request goes to the workspace of its `X-Token`. A process keeps at most `loadedWorkspacesLimit` of the
 * others loaded, least recently used out, and follows what other replicas change when the store is shared.
 */

import type { ExchangeReplay } from "./data/exchanges.ts";
import type { Fault, FaultRequest } from "./data/faults.ts";
import { allFiredEvents, type FiredEventRecord, type FiredEventsFilter } from "./data/fired-events.ts";
import { generatedSource } from "./data/source.ts";
import { defaultWorkspace, type SandboxStore, type WorkspaceChange, type WorkspaceRow } from "./data/store.ts";
import { createApp } from "./http/app.ts";
import type { Handler, RequestObserver, Workspaces } from "./http/context.ts";
import { answerFetch } from "./http/fetch-adapter.ts";
import type { RequestFilter, RequestRecord } from "./http/journal.ts";
import type { DataSource, SandboxState } from "./model.ts";
import { type SandboxOptions, stateConflict } from "./options.ts";
import { checkSwitches, type SandboxSwitches, switchesOf } from "./switches.ts";
import { Workspace } from "./workspace.ts";

/** A running sandbox in process: the same handler the server runs, as a `fetch` function; its methods act on the default workspace. */
export interface Sandbox {
  /** Answers a request like the server would; give it to a client as its `fetch` (any origin works). */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Closes the sandbox (and its `--data` file or database connections; every acknowledged change already is kept). */
  close(): Promise<void>;
  /** The options in force, defaults filled in. */
  readonly options: SandboxOptions;
  /** The requests received (the service's operations), oldest first, filtered; the same as `GET /_sandbox/requests`. */
  requests(filter?: RequestFilter): RequestRecord[];
  /** Every external event accepted, oldest first, from any store (`GET /_sandbox/fired-events` answers a page at a time). */
  firedEvents(filter?: FiredEventsFilter): Promise<FiredEventRecord[]>;
  /** Loads other data (a seed, a count, a named state; omitted fields keep the sandbox's options) and clears both journals; the same as `POST /_sandbox/reset`. */
  reset(given?: { seed?: string; conversations?: number; state?: SandboxState }): Promise<{ bots: number; conversations: number }>;
  /** Arms a fault (by default once), in any store: the same as `POST /_sandbox/faults`, e.g. `{ operationId: "searchConversations", status: 503 }`. */
  fault(fault: FaultRequest): Promise<Fault>;
}

/** Workspaces a process keeps loaded besides the default one; the least recently used is dropped past it (our choice). */
export const loadedWorkspacesLimit = 32;

/** The SHA-256 of a token, hex (Web Crypto: the same in a browser): a store keeps no token, only this. */
async function tokenHash(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A new workspace token: 24 random bytes, base64url. */
function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A workspace loaded for one token (its hash): a removed workspace's token never reaches a new one of the same name. */
type LoadedWorkspace = { readonly workspace: Workspace; readonly tokenSha256: string };

/** What a sandbox tells whoever observes it (its log and metrics: `observe/`); nothing is told by default. */
export interface SandboxEvents {
  /** The administrator created a workspace. */
  workspaceCreated(name: string): void;
  /** The administrator removed a workspace. */
  workspaceRemoved(name: string): void;
  /** A workspace was dropped from memory, least recently used. */
  workspaceEvicted(name: string): void;
  /** A change was heard from the store (a replica's, or this process's own). */
  changeHeard(change: WorkspaceChange): void;
  /** The store stopped telling changes (the database lost). */
  storeLost(): void;
  /** The store tells changes again (the database back). */
  storeBack(): void;
}

/** What opens a sandbox: how loads let other work through, and who observes it. */
export interface SandboxStart {
  /** Awaited between chunks of a load while the sandbox serves, so other requests are answered meanwhile. */
  readonly pause?: () => Promise<void>;
  /** Told what happens (see `SandboxEvents`). */
  readonly events?: SandboxEvents;
  /** A recording to replay exactly: its requests, sent with an accepted token, get their recorded answers (`data/exchanges.ts`). */
  readonly replay?: ExchangeReplay | undefined;
  /** Who observes its requests (`observe/`): its middleware around every route, and the routes only it answers (the metrics). */
  readonly observer?: RequestObserver | undefined;
}

/** Events nobody observes. */
const unobserved: SandboxEvents = {
  workspaceCreated: () => undefined,
  workspaceRemoved: () => undefined,
  workspaceEvicted: () => undefined,
  changeHeard: () => undefined,
  storeLost: () => undefined,
  storeBack: () => undefined,
};

/** The sandbox in process, over its store: what `createSandbox` returns, what the server serves (`pipeline`) and what the MSW handlers call (`fetch`). */
export class OpenSandbox implements Sandbox {
  readonly #store: SandboxStore;
  readonly #options: SandboxOptions;
  readonly #pause: (() => Promise<void>) | undefined;
  readonly #events: SandboxEvents;
  #main!: Workspace;
  /** The other workspaces loaded, least recently used first. */
  readonly #loaded = new Map<string, Promise<LoadedWorkspace>>();
  /** Token hashes seen, with their workspace: a workspace's requests ask the store nothing to find it. */
  readonly #names = new Map<string, string>();
  readonly #workspaces: Workspaces;
  /** The one app: every route of every workspace, through one pipeline (made once the default workspace is open). */
  #app!: Handler;

  private constructor(options: SandboxOptions, store: SandboxStore, start: SandboxStart) {
    this.#options = options;
    this.#store = store;
    this.#pause = start.pause;
    const events = start.events ?? unobserved;
    this.#events = events;
    this.#workspaces = {
      create: async ({ name, source, switches }) => {
        const token = newToken();
        if (!(await store.createWorkspace(name, source, switches, await tokenHash(token)))) return undefined;
        events.workspaceCreated(name);
        return token;
      },
      list: (after, limit) => store.listWorkspaces(after, limit),
      remove: async (name) => {
        if (!(await store.deleteWorkspace(name))) return false;
        // Refused here from now on; the other replicas hear of it.
        this.#forget(name);
        events.workspaceRemoved(name);
        return true;
      },
      ready: () => store.ready(),
      draining: () => start.observer?.draining() ?? false,
    };
  }

  /**
   * Opens the sandbox over a store: creates the default workspace from `initial` unless the store has it,
   * and listens for other replicas' changes (a shared store). The store is closed when this fails.
   */
  static async open(options: SandboxOptions, store: SandboxStore, initial: () => DataSource, start: SandboxStart = {}): Promise<OpenSandbox> {
    const sandbox = new OpenSandbox(options, store, start);
    try {
      await store.createWorkspace(defaultWorkspace, initial(), switchesOf(options), null);
      await sandbox.#reopenMain();
      sandbox.#app = createApp(
        { main: () => sandbox.#main, createdWorkspaceOf: (token) => sandbox.#workspaceOf(token), adminToken: options.adminToken, replay: start.replay },
        start.observer,
      );
      await store.listen(
        (change) => void sandbox.#follow(change).catch(() => undefined),
        () => sandbox.#followAll(),
        () => sandbox.#events.storeLost(),
      );
    } catch (error) {
      await store.close();
      throw error;
    }
    return sandbox;
  }

  /**
   * Opens a workspace over its row: its switches over the command's options, its token(s). What it keeps is bound to
   * the row's creation of the name (`kept`, every request's way to the store): a request to it changes nothing once
   * that creation is removed, whatever is created under the name since.
   */
  async #open(row: WorkspaceRow, tokens: readonly string[]): Promise<Workspace> {
    const options = { ...this.#options, ...checkSwitches(row.switches), tokens };
    const kept = this.#store.workspaceStore(row);
    const changeSwitches = async (switches: SandboxSwitches) => {
      await kept.setSwitches(switches);
      // Opened again here before the answer; the other replicas hear of it.
      if (row.name === defaultWorkspace) await this.#reopenMain();
      else this.#forget(row.name);
    };
    return Workspace.open({ name: row.name, options, kept, workspaces: this.#workspaces, changeSwitches, pause: this.#pause }, row.source);
  }

  /** Opens the default workspace (again) as the store holds it. */
  async #reopenMain(): Promise<void> {
    const row = await this.#store.workspace(defaultWorkspace);
    if (row) this.#main = await this.#open(row, this.#options.tokens);
  }

  #forget(name: string): void {
    this.#loaded.delete(name);
    for (const [hash, owner] of this.#names) if (owner === name) this.#names.delete(hash);
  }

  /** The workspace of a token that is not the default one's, loaded on first use, or `undefined` for a token of none. */
  async #workspaceOf(token: string): Promise<Workspace | undefined> {
    const hash = await tokenHash(token);
    const name = this.#names.get(hash);
    const cached = name === undefined ? undefined : this.#loaded.get(name);
    if (cached) {
      const entry = await cached;
      if (entry.tokenSha256 === hash) {
        // Used now: moved to the most recent end.
        this.#loaded.delete(name!);
        this.#loaded.set(name!, cached);
        return entry.workspace;
      }
    }
    const row = await this.#store.workspaceOfToken(hash);
    if (!row) {
      this.#names.delete(hash);
      return undefined;
    }
    if (this.#names.size >= loadedWorkspacesLimit * 4) this.#names.clear();
    this.#names.set(hash, row.name);
    const entry = this.#open(row, [token]).then((workspace) => ({ workspace, tokenSha256: hash }));
    entry.catch(() => this.#loaded.delete(row.name));
    this.#loaded.set(row.name, entry);
    while (this.#loaded.size > loadedWorkspacesLimit) {
      const evicted = this.#loaded.keys().next().value!;
      this.#forget(evicted);
      this.#events.workspaceEvicted(evicted);
    }
    return (await entry).workspace;
  }

  /**
   * Follows a change committed by any replica (this one included): new data is loaded and swapped in,
   * faults read again, a workspace whose switches changed opened again, a removed workspace dropped.
   */
  async #follow(heard: WorkspaceChange): Promise<void> {
    this.#events.changeHeard(heard);
    const { workspace, change } = heard;
    const entry = workspace === defaultWorkspace ? this.#main : (await this.#loaded.get(workspace)?.catch(() => undefined))?.workspace;
    if (!entry) return;
    if (change === "deleted") return this.#forget(workspace);
    if (change === "faults") return entry.kept.faultsChanged();
    if (change === "switches") return workspace === defaultWorkspace ? this.#reopenMain() : this.#forget(workspace);
    const row = await this.#store.workspace(workspace);
    // Removed, or removed and created again (a notification missed): the creation loaded is gone.
    if (!row || row.incarnation !== entry.kept.incarnation) return this.#forget(workspace);
    if (row.generation > entry.kept.generation) await entry.adopt(row.source, row.generation);
  }

  /** Changes may have been missed while the store's notifications were down: every workspace is read again. */
  #followAll(): void {
    this.#events.storeBack();
    for (const name of [...this.#loaded.keys()]) this.#forget(name);
    this.#names.clear();
    this.#main.kept.faultsChanged();
    void this.#follow({ workspace: defaultWorkspace, change: "data" }).catch(() => undefined);
  }

  /** The one pipeline (`http/app.ts`), as the transports' adapters call it (`http/node-adapter.ts`, `http/fetch-adapter.ts`). */
  readonly pipeline: Handler = (c) => this.#app(c);

  /** Answers a Fetch `Request` through the one pipeline; `network` as if it came over the network (the control API's Host guard applies). */
  readonly handle = (request: Request, { network = false }: { network?: boolean } = {}): Response | Promise<Response> =>
    answerFetch(this.pipeline, request, network);

  get options(): SandboxOptions {
    return this.#main.options;
  }

  /** The workspaces loaded in this process, the default one included. */
  get loadedWorkspaces(): number {
    return this.#loaded.size + 1;
  }

  // The methods are fields, so that a method taken off the sandbox (`const { fetch } = sandbox`) still works.
  readonly fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> =>
    this.handle(input instanceof Request && init === undefined ? input : new Request(input, init));

  readonly requests = (filter?: RequestFilter): RequestRecord[] => this.#main.context.requests.list(filter);

  readonly firedEvents = (filter?: FiredEventsFilter): Promise<FiredEventRecord[]> => allFiredEvents(this.#main.context.fired, filter);

  readonly reset = async (given: { seed?: string; conversations?: number; state?: SandboxState } = {}): Promise<{ bots: number; conversations: number }> => {
    const conflict = stateConflict(given);
    if (conflict) throw new TypeError(`conversations: ${conflict}`);
    return this.#main.context.replaceData(generatedSource(this.#options, given));
  };

  readonly fault = (fault: FaultRequest): Promise<Fault> => this.#main.context.faults.add(fault);

  readonly close = async (): Promise<void> => {
    this.#loaded.clear();
    await this.#store.close();
  };
}
