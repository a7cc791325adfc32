import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { parseServeOptions, referenceBasePath } from "../src/options.ts";

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

test.each([
  [undefined, "/"],
  ["", "/"],
  ["/", "/"],
  // actions/configure-pages's base_path: no trailing slash.
  ["/repo", "/repo/"],
  ["/some/sub/path/", "/some/sub/path/"],
  ["/a%20b/v1.2", "/a%20b/v1.2/"],
])("the site's base path from DOCS_BASE_PATH=%j is %j", (given, expected) => {
  expect(referenceBasePath(given === undefined ? {} : { DOCS_BASE_PATH: given })).toBe(expected);
});

test.each([
  ["repo", '"repo"'],
  ["https://example.github.io/repo", '"https://example.github.io/repo"'],
  ["//evil.example/x", '"//evil.example/x"'],
  ["/a/../b", '"/a/../b"'],
  ['/x"><script>', '"/x\\"><script>"'],
  ["/a b", '"/a b"'],
  ["/a\u001b[2Jb", '"/a\\u001b[2Jb"'],
])("refuses DOCS_BASE_PATH=%j, naming the variable and what it takes", (given, shown) => {
  expect(() => referenceBasePath({ DOCS_BASE_PATH: given })).toThrow(
    new Error(`DOCS_BASE_PATH: expected the site's path from the host's root, such as /repo (or empty for the root); got ${shown}`),
  );
});

test("the build refuses a bad DOCS_BASE_PATH in one line, exit 2, before building anything", async () => {
  const build = fileURLToPath(new URL("../src/build.ts", import.meta.url));
  const result = await promisify(execFile)(process.execPath, [build], { env: { ...process.env, DOCS_BASE_PATH: "repo" } }).catch((error) => error);
  expect([result.code, result.stdout, result.stderr]).toEqual([
    2,
    "",
    `docs build: DOCS_BASE_PATH: expected the site's path from the host's root, such as /repo (or empty for the root); got "repo"\n`,
  ]);
});
