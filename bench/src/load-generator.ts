/**
 * The load generator of the server benchmarks, a process of its own (see `server-load.ts`), so that
 * it never shares an event loop with the bench or the server: `node load-generator.ts '<LoadRequest JSON>'`.
 * It runs the warm-up, prints `measuring`, runs the measured load, then prints its figures as one
 * line of JSON (`LoadFigures`).
 */
import autocannon from "autocannon";

/** What the bench asks of the load generator. */
export interface LoadRequest {
  /** Full URL of the operation. */
  readonly url: string;
  /** Request headers. */
  readonly headers: Record<string, string>;
  /** Concurrent connections (each with one request in flight: no pipelining). */
  readonly connections: number;
  /** Seconds of load before the measured window, not counted: warms the server and the generator. */
  readonly warmUpSeconds: number;
  /** Seconds of the measured window. */
  readonly durationSeconds: number;
  /** HTTP method; GET when not given. */
  readonly method?: "GET" | "POST";
  /** The request body, sent with every request. */
  readonly body?: string;
}

/** The figures of the measured window. */
export interface LoadFigures {
  /** Responses received in the window. */
  readonly requests: number;
  /** Length of the window, ms. */
  readonly durationMs: number;
  /** Median latency, ms. */
  readonly p50: number;
  /** 97.5th percentile latency, ms (autocannon's nearest above the 95th). */
  readonly p97_5: number;
  /** 99th percentile latency, ms. */
  readonly p99: number;
  /** Responses with a status other than 2xx. */
  readonly non2xx: number;
  /** Connection errors and time-outs. */
  readonly errors: number;
  /** CPU seconds the load generator itself used in the window. */
  readonly generatorCpuSeconds: number;
}

/** Line printed between the warm-up and the measured window. */
export const measuringLine = "measuring";

if (import.meta.main) {
  const request = JSON.parse(process.argv[2] ?? "") as LoadRequest;
  const options = {
    url: request.url,
    headers: request.headers,
    connections: request.connections,
    method: request.method ?? "GET",
    ...(request.body === undefined ? {} : { body: request.body }),
  };
  if (request.warmUpSeconds > 0) await autocannon({ ...options, duration: request.warmUpSeconds });
  console.log(measuringLine);
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({ ...options, duration: request.durationSeconds });
  const cpu = process.cpuUsage(cpuBefore);
  const figures: LoadFigures = {
    requests: result.requests.total,
    durationMs: result.duration * 1000,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    generatorCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
  console.log(JSON.stringify(figures));
}
