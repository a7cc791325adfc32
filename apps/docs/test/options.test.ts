import { expect, test } from "vitest";
import { parseServeOptions } from "../src/options.ts";

test.each([
  [[], {}, { host: "127.0.0.1", port: 8080 }],
  [["--port", "8090"], {}, { host: "127.0.0.1", port: 8090 }],
  // `pnpm --filter @bot-conversation/docs start -- --port 8090` passes the `--` on.
  [["--", "--port", "8090"], {}, { host: "127.0.0.1", port: 8090 }],
  [[], { DOCS_PORT: "0", DOCS_HOST: "localhost" }, { host: "localhost", port: 0 }],
])("reads %j with %j", (argv, env, expected) => {
  expect(parseServeOptions(argv, env, 8080)).toEqual(expected);
});

test.each(["eighty", "70000", "1.5", ""])("refuses --port %j naming the flag and the variable", (port) => {
  expect(() => parseServeOptions(["--port", port], {}, 8080)).toThrow(
    new TypeError(`--port / DOCS_PORT: expected an integer from 0 to 65535; got ${JSON.stringify(port)}`),
  );
});
