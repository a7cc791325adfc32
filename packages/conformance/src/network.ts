import { readFileSync } from "node:fs";
import { Agent, type Dispatcher, ProxyAgent, fetch as undiciFetch } from "undici";

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
 * A fetch over undici's own `Agent` or `ProxyAgent` for these options, or undefined when none is set
 * (the global fetch is used then). Throws naming the option when the proxy URL or the CA file is bad.
 */
export function networkFetch(options: NetworkOptions): NetworkFetch | undefined {
  if (!options.proxy && !options.caCert && !options.insecure) return undefined;
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
  let dispatcher: Dispatcher;
  if (options.proxy) {
    let url: URL;
    try {
      url = new URL(options.proxy);
    } catch {
      throw new Error(`--proxy: expected a URL such as http://proxy.internal:3128; got ${JSON.stringify(options.proxy)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`--proxy: expected an http or https URL; got ${url.protocol}`);
    dispatcher = new ProxyAgent({ uri: url.href, requestTls: tls });
  } else {
    dispatcher = new Agent({ connect: tls });
  }
  const fetch = ((input: string | URL | Request, init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    })) as unknown as typeof globalThis.fetch;
  return { fetch, close: () => dispatcher.close() };
}
