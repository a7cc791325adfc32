import { parseArgs } from "node:util";
// By path: the client's tests use the mock, so the mock cannot depend on the client (a package cycle).
import { portOf } from "../../../packages/client/src/port.ts";

/** How the mock is started: where it listens and how it answers. */
export interface MockOptions {
  /** Interface Prism listens on. */
  host: string;
  /** TCP port Prism listens on. */
  port: number;
  /** Generate responses from the schemas (seeded) instead of serving the named examples. */
  dynamic: boolean;
  /** Seed of the dynamic generator, so generated data is the same on every run. */
  seed: string;
}

/** Defaults: the address every sample and the reference site's server variable point at. */
export const defaultMockOptions: MockOptions = {
  host: "127.0.0.1",
  port: 4010,
  dynamic: false,
  seed: "bot-conversation",
};

/** Reads options from the command line (`--host`, `--port`, `--dynamic`, `--seed`), then `MOCK_HOST` / `MOCK_PORT`. */
export function parseMockOptions(argv: readonly string[], env: NodeJS.ProcessEnv): MockOptions {
  const { values } = parseArgs({
    args: argv[0] === "--" ? argv.slice(1) : [...argv],
    options: {
      host: { type: "string" },
      port: { type: "string" },
      dynamic: { type: "boolean" },
      seed: { type: "string" },
    },
    strict: true,
  });
  const portText = values.port ?? env["MOCK_PORT"] ?? String(defaultMockOptions.port);
  return {
    host: values.host ?? env["MOCK_HOST"] ?? defaultMockOptions.host,
    port: portOf(portText, "--port / MOCK_PORT"),
    dynamic: values.dynamic ?? false,
    seed: values.seed ?? defaultMockOptions.seed,
  };
}
