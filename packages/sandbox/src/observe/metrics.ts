/**
 * The sandbox's metrics in the Prometheus text format (prom-client), served at `GET /_sandbox/metrics`.
 * Each sandbox has its own registry (never prom-client's global one), so several sandboxes in one
 * process never share or clash. Labels are of bounded cardinality: an operation is an operationId of
 * the service's or the control API's description (or `none`), a status is an HTTP status, and a
 * workspace is named only for the first `workspaceLabelLimit` names seen (`other` past them).
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { type HistogramSeries, KeptHistogram } from "./histogram.ts";

/** Workspaces named in labels, `default` included; the others are counted under `other` (our choice). */
export const workspaceLabelLimit = 20;

/** The workspace label of a request that reached none (the administrator's routes, a refused token). */
export const noWorkspace = "none";

/** The database's pool, as the metrics read it at each scrape. */
export interface PoolStatistics {
  /** Connections open, busy or idle. */
  readonly total: number;
  /** Connections open and idle. */
  readonly idle: number;
  /** Requests waiting for a connection. */
  readonly waiting: number;
}

/** What the metrics read from a shared sandbox's database at each scrape; a sandbox without one has none. */
export interface DatabaseProbe {
  /** The pool now. */
  pool(): PoolStatistics;
  /** The time of one round trip (`SELECT 1`) in seconds, or `undefined` when the database does not answer. */
  roundTrip(): Promise<number | undefined>;
}

/** The metrics one label set of a request records into. */
interface RequestSeries {
  readonly requests: { inc(value: number): void };
  /** Requests counted since the counter was last told (it is told at each scrape: prom-client hashes the labels at every `inc`). */
  counted: number;
  readonly duration: HistogramSeries;
  /** Only for a fire answered 200: its workspace's counter, and the fires counted since it was last told (at each scrape). */
  readonly fires: { readonly counter: { inc(value: number): void }; counted: number } | undefined;
}

/** One sandbox's metrics: its registry and the calls that record into it. */
export class SandboxMetrics {
  /** The registry the scrape reads: this sandbox's own. */
  readonly registry = new Registry();
  readonly #workspaceLabels = new Set<string>(["default", noWorkspace]);
  readonly #requests: Counter<"operation" | "status" | "workspace">;
  readonly #duration: KeptHistogram<"operation" | "workspace">;
  readonly #fires: Counter<"workspace">;
  readonly #notificationLag: Histogram;
  readonly #evicted: Counter;
  readonly #databaseUp: Gauge;
  #database: DatabaseProbe | undefined;
  #loaded: () => number = () => 1;
  #droppedLogLines: () => number = () => 0;

  constructor() {
    const registers = [this.registry];
    this.#requests = new Counter({
      name: "sandbox_requests_total",
      help: "Requests answered, by operation (operationId, or none), HTTP status and workspace.",
      labelNames: ["operation", "status", "workspace"],
      registers,
      // The requests counted since the last scrape, told now.
      collect: () => {
        for (const series of this.#series.values()) {
          if (series.counted === 0) continue;
          series.requests.inc(series.counted);
          series.counted = 0;
        }
      },
    });
    this.#duration = new KeptHistogram({
      name: "sandbox_request_duration_seconds",
      help: "Time from a request's arrival to its answer's headers, by operation and workspace.",
      labelNames: ["operation", "workspace"],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.#fires = new Counter({
      name: "sandbox_fires_committed_total",
      help: "External events fired and kept (answered 200, so committed first where they are kept), by workspace.",
      labelNames: ["workspace"],
      registers,
      // The fires counted since the last scrape, told now.
      collect: () => {
        for (const series of this.#series.values()) {
          if (series.fires === undefined || series.fires.counted === 0) continue;
          series.fires.counter.inc(series.fires.counted);
          series.fires.counted = 0;
        }
      },
    });
    this.#notificationLag = new Histogram({
      name: "sandbox_notification_lag_seconds",
      help: "Time from a change's commit on a replica to its notification here (shared sandbox; clocks of the replicas' machines compared).",
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.#evicted = new Counter({
      name: "sandbox_workspaces_evicted_total",
      help: "Workspaces dropped from memory as least recently used (loaded again on their next request).",
      registers,
    });
    const metrics = this;
    new Gauge({
      name: "sandbox_workspaces_loaded",
      help: "Workspaces loaded in memory in this process, default included.",
      registers,
      collect() {
        this.set(metrics.#loaded());
      },
    });
    let droppedReported = 0;
    new Counter({
      name: "sandbox_log_lines_dropped_total",
      help: "Log lines dropped because the log's reader fell behind or is gone (the process's log, as the command writes it).",
      registers,
      collect() {
        // The log counts its own drops: the counter follows it at each scrape.
        const dropped = metrics.#droppedLogLines();
        if (dropped > droppedReported) this.inc(dropped - droppedReported);
        droppedReported = dropped;
      },
    });
    this.#databaseUp = new Gauge({
      name: "sandbox_database_up",
      help: "1 while the shared sandbox's database answers and this replica hears the others' changes, else 0 (absent without a database).",
      registers: [],
    });
    const pool = new Gauge({
      name: "sandbox_database_pool_connections",
      help: "Connections of the database pool by state (in_use, idle), and requests waiting for one (waiting).",
      labelNames: ["state"],
      registers: [],
      collect() {
        const statistics = metrics.#database?.pool();
        if (!statistics) return;
        this.set({ state: "in_use" }, statistics.total - statistics.idle);
        this.set({ state: "idle" }, statistics.idle);
        this.set({ state: "waiting" }, statistics.waiting);
      },
    });
    const roundTrip = new Gauge({
      name: "sandbox_database_round_trip_seconds",
      help: "Time of one round trip to the database (SELECT 1), measured at each scrape; absent while it does not answer.",
      registers: [],
      async collect() {
        this.reset();
        const seconds = await metrics.#database?.roundTrip();
        if (seconds !== undefined) this.set(seconds);
      },
    });
    this.#databaseMetrics = [this.#databaseUp, pool, roundTrip];
  }

  readonly #databaseMetrics: readonly (Gauge | Gauge<"state">)[];

  /** A shared sandbox's database: its metrics are added to the registry. */
  useDatabase(probe: DatabaseProbe): void {
    this.#database = probe;
    for (const metric of this.#databaseMetrics) this.registry.registerMetric(metric);
    this.#databaseUp.set(1);
  }

  /** How many workspaces are loaded now (read at each scrape). */
  countLoadedWith(loaded: () => number): void {
    this.#loaded = loaded;
  }

  /** How many log lines the sandbox's log dropped so far (read at each scrape). */
  countDroppedLogLinesWith(dropped: () => number): void {
    this.#droppedLogLines = dropped;
  }

  /** The label of a workspace: its name for the first `workspaceLabelLimit` names seen, `other` past them. */
  workspaceLabel(workspace: string | undefined): string {
    if (workspace === undefined) return noWorkspace;
    if (this.#workspaceLabels.has(workspace)) return workspace;
    if (this.#workspaceLabels.size < workspaceLabelLimit + 1) {
      this.#workspaceLabels.add(workspace);
      return workspace;
    }
    return "other";
  }

  /** A request answered: counted, its time observed, and a fire answered 200 counted as committed. */
  request(operation: string, status: number, workspace: string | undefined, seconds: number): void {
    const label = this.workspaceLabel(workspace);
    const series = this.#seriesOf(operation, status, label);
    series.counted++;
    series.duration.observe(seconds);
    if (series.fires !== undefined) series.fires.counted++;
  }

  /**
   * The labelled children of one label set, made at its first request and kept (the labels are bounded, so the
   * kept sets are too): a request then neither builds nor checks a labels object.
   */
  readonly #series = new Map<string, RequestSeries>();
  /** The last request's label set and series: a steady load asks for the same one again, found without a key. */
  #last: { readonly operation: string; readonly status: number; readonly workspace: string; readonly series: RequestSeries } | undefined;
  #seriesOf(operation: string, status: number, workspace: string): RequestSeries {
    const last = this.#last;
    if (last !== undefined && last.operation === operation && last.status === status && last.workspace === workspace) return last.series;
    const key = `${operation} ${status} ${workspace}`;
    let series = this.#series.get(key);
    if (series === undefined) {
      series = {
        requests: this.#requests.labels({ operation, status, workspace }),
        counted: 0,
        duration: this.#duration.series({ operation, workspace }),
        fires: operation === "fireExternalEvent" && status === 200 ? { counter: this.#fires.labels({ workspace }), counted: 0 } : undefined,
      };
      this.#series.set(key, series);
    }
    this.#last = { operation, status, workspace, series };
    return series;
  }

  /** The database was lost (`false`) or is back (`true`). */
  databaseUp(up: boolean): void {
    this.#databaseUp.set(up ? 1 : 0);
  }

  /** A change announced by a replica reached this one, `seconds` after it was committed. */
  notificationLag(seconds: number): void {
    this.#notificationLag.observe(Math.max(0, seconds));
  }

  /** A workspace was dropped from memory. */
  workspaceEvicted(): void {
    this.#evicted.inc();
  }
}
