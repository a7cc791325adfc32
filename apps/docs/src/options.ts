import { parseArgs } from "node:util";

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
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port / DOCS_PORT must be an integer from 0 to 65535, got ${JSON.stringify(portText)}`);
  }
  return { host: values.host ?? env["DOCS_HOST"] ?? "127.0.0.1", port };
}
