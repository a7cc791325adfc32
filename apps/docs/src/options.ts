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
