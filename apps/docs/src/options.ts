import { parseArgs } from "node:util";
import { portOf } from "@bot-conversation/client/command-line";

/** Where the reference site is served. */
export interface ServeOptions {
  /** Interface to listen on. */
  host: string;
  /** TCP port to listen on. */
  port: number;
}

/** Reads `--host` / `--port`, then `DOCS_HOST` / `DOCS_PORT`; defaults to 127.0.0.1:`defaultPort`. */
export function parseServeOptions(argv: readonly string[], env: NodeJS.ProcessEnv, defaultPort: number): ServeOptions {
  const { values } = parseArgs({
    args: argv[0] === "--" ? argv.slice(1) : [...argv],
    options: { host: { type: "string" }, port: { type: "string" } },
    strict: true,
  });
  const portText = values.port ?? env["DOCS_PORT"] ?? String(defaultPort);
  // The toolkit's one check of a port (the sandbox's --port too).
  return { host: values.host ?? env["DOCS_HOST"] ?? "127.0.0.1", port: portOf(portText, "--port / DOCS_PORT") };
}

/** One segment of a URL path as a base path may hold it (RFC 3986's pchar, less `&` and `'`, which HTML would need escaped). */
const pathSegment = /^[A-Za-z0-9._~!$()*+,;=:@%-]+$/;

/**
 * The site's base path for the build (`DOCS_BASE_PATH`): where a static host serves it, as
 * `actions/configure-pages` reports it (`/repo`, or empty for a host's root). Written into `404.html`,
 * whose links to the home page and the search start there. `/` when unset or empty (our choice, as
 * Vite's `base`); always ends with `/`. Anything but a path from the host's root (`repo`,
 * `https://…`, `//host`, `/a/../b`) is refused, naming the variable and what it takes.
 */
export function referenceBasePath(env: NodeJS.ProcessEnv): string {
  const text = env["DOCS_BASE_PATH"] ?? "";
  if (text === "" || text === "/") return "/";
  const segments = text.slice(1).replace(/\/$/, "").split("/");
  if (!text.startsWith("/") || segments.some((segment) => !pathSegment.test(segment) || segment === "." || segment === "..")) {
    const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text).replace(/\p{Cc}/gu, "");
    throw new Error(`DOCS_BASE_PATH: expected the site's path from the host's root, such as /repo (or empty for the root); got ${shown}`);
  }
  return `/${segments.join("/")}/`;
}
