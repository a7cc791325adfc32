import { readFileSync } from "node:fs";
import { type Dispatcher, Pool, ProxyAgent, fetch as undiciFetch } from "undici";

/** How requests reach the server: through a proxy, trusting another CA, or not checking certificates. */
export interface NetworkOptions {
  /** An HTTP(S) proxy URL, e.g. `http://proxy.internal:3128`. */
  readonly proxy?: string | undefined;
  /** A PEM file of certificate authorities to trust besides Node's own. */
  readonly caCert?: string | undefined;
  /** Skip TLS certificate checks (a test server with a self-signed certificate). */
  readonly insecure?: boolean | undefined;
}

/** A fetch with its own connections, and how to close them when the run is over. */
export interface NetworkFetch {
  /** The fetch to send with. */
  readonly fetch: typeof globalThis.fetch;
  /** Closes the connections it holds open. */
  close(): Promise<void>;
}

/**
 * The kit's fetch: undici's, over connections of its own to the server's one origin (the origin of the first request;
 * a request to another is refused, so the token never leaves it). Through a proxy when `options.proxy` is set
 * (`ProxyAgent`); otherwise an undici `Pool` for that origin, trusting `options.caCert` or not checking certificates
 * when asked. Not an `Agent` (the global fetch's dispatcher): undici's `Agent` (7.29, and Node's own fetch) closes an
 * origin's whole pool when a connection ends while the next request waits for its own, and so again for every request
 * after it (nodejs/undici#5022): after the kit's first `Connection: close` (a relation of its own), or a server's
 * `Keep-Alive: max`, every request opened a connection of its own. A `Pool` keeps its connections and opens one again
 * when one ends. Throws naming the option when the proxy URL or the CA file is bad.
 */
export function networkFetch(options: NetworkOptions = {}): NetworkFetch {
  let ca: string | undefined;
  if (options.caCert) {
    try {
      ca = readFileSync(options.caCert, "utf8");
    } catch (error) {
      throw new Error(`--ca-cert ${options.caCert}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    if (!ca.includes("-----BEGIN CERTIFICATE-----")) throw new Error(`--ca-cert ${options.caCert}: expected PEM certificates (-----BEGIN CERTIFICATE-----)`);
  }
  const tls = { ...(ca ? { ca } : {}), ...(options.insecure ? { rejectUnauthorized: false } : {}) };
  let proxy: ProxyAgent | undefined;
  if (options.proxy) {
    let url: URL;
    try {
      url = new URL(options.proxy);
    } catch {
      throw new Error(`--proxy: expected a URL such as http://proxy.internal:3128; got ${JSON.stringify(options.proxy)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`--proxy: expected an http or https URL; got ${url.protocol}`);
    proxy = new ProxyAgent({ uri: url.href, requestTls: tls });
  }
  let pool: { origin: string; dispatcher: Dispatcher } | undefined;
  const dispatcherFor = (input: string | URL | Request): Dispatcher => {
    const { origin } = new URL(input instanceof Request ? input.url : input);
    pool ??= { origin, dispatcher: proxy ?? new Pool(origin, { connect: tls }) };
    if (origin !== pool.origin) throw new Error(`the kit sends to ${pool.origin} only; refused a request to ${origin}`);
    return pool.dispatcher;
  };
  const fetch = (async (input: string | URL | Request, init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: dispatcherFor(input),
    })) as unknown as typeof globalThis.fetch;
  // Destroyed, not closed: the run is over, and a request a stopped run left behind must not hold the process.
  return { fetch, close: async () => (pool?.dispatcher ?? proxy)?.destroy() };
}
