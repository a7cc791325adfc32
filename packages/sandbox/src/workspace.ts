/**
 * One workspace served: its search index over the data in place, what its store keeps (fired events,
 * faults, data source) and its request journal, which the one app's routes work with. Every mode serves workspaces this way.
 */
import { Random } from "./data/random.ts";
import { dataOf } from "./data/source.ts";
import type { WorkspaceStore } from "./data/store.ts";
import { SearchIndex } from "./engine/search-index.ts";
import type { SandboxContext, ServedWorkspace, Workspaces } from "./http/context.ts";
import { RequestJournal } from "./http/journal.ts";
import type { DataSource } from "./model.ts";
import { SearchAnswers } from "./operations/search-answers.ts";
import type { SandboxOptions } from "./options.ts";
import type { SandboxSwitches } from "./switches.ts";

/** What a workspace is opened with besides its data: its options, its store, and the sandbox around it. */
export interface WorkspaceStart {
  /** Its name in the store. */
  readonly name: string;
  /** The options it runs with (its switches and tokens included). */
  readonly options: SandboxOptions;
  /** What its store keeps of it. */
  readonly kept: WorkspaceStore;
  /** The sandbox's workspaces, for the administrator's routes and readiness. */
  readonly workspaces: Workspaces;
  /** Keeps the workspace's new switches and opens it again with them. */
  readonly changeSwitches: (switches: SandboxSwitches) => Promise<void>;
  /** Awaited between chunks of a load while the sandbox serves, so other requests are answered meanwhile. */
  readonly pause?: (() => Promise<void>) | undefined;
}

/** A workspace loaded in this process, as the one app serves it (`http/app.ts`: its context is `c.get("workspace")`'s). */
export class Workspace implements ServedWorkspace {
  readonly name: string;
  readonly options: SandboxOptions;
  readonly kept: WorkspaceStore;
  readonly context: SandboxContext;
  #index: SearchIndex;
  #loading: Promise<unknown> = Promise.resolve();
  readonly #pause: (() => Promise<void>) | undefined;

  private constructor(start: WorkspaceStart, index: SearchIndex) {
    this.name = start.name;
    this.options = start.options;
    this.kept = start.kept;
    this.#index = index;
    this.#pause = start.pause;
    this.context = {
      index: () => this.#index,
      options: start.options,
      fired: start.kept.fired,
      faults: start.kept.faults,
      requests: new RequestJournal(),
      searchAnswers: new SearchAnswers(),
      latencyDraws: new Random(`${start.options.seed}\u0000latency`, 0),
      replaceData: (source) => this.load(source, (swap) => this.kept.replaced(source, swap)),
      changeSwitches: start.changeSwitches,
      workspaces: start.workspaces,
    };
  }

  /** Opens a workspace over its data source (loaded first). */
  static async open(start: WorkspaceStart, source: DataSource): Promise<Workspace> {
    return new Workspace(start, await SearchIndex.load(dataOf(source)));
  }

  /**
   * Loads `source`, then hands `commit` the swap: it keeps the change (or checks it is still news) and
   * swaps the new data in, in the same turn, so a fire is checked and recorded against the data in place,
   * never against data gone. Loads run one after another, in the order asked.
   */
  load(source: DataSource, commit: (swap: () => void) => void | Promise<void>): Promise<{ bots: number; conversations: number }> {
    const loaded = this.#loading.then(async () => {
      const next = await SearchIndex.load(dataOf(source), this.#pause);
      await commit(() => {
        this.#index = next;
        this.context.requests.clear();
        // The pages kept are of the data replaced (never answered again: each is kept with its index); let go now.
        this.context.searchAnswers.clear();
      });
      return this.#index.counts();
    });
    this.#loading = loaded.catch(() => undefined);
    return loaded;
  }

  /** Loads data of `generation` that another process already kept, and swaps it in once loaded if it is still news: how a replica follows a reset made on another. */
  adopt(source: DataSource, generation: number): Promise<unknown> {
    return this.load(source, (swap) => this.kept.adopted(generation, swap));
  }
}
