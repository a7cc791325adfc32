import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { exitCodes, maxTokenFileBytes, portOf, readTokenFile, tokenOf } from "../src/command-line.js";

const scratch = mkdtempSync(join(tmpdir(), "client-command-line-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};

describe("readTokenFile: the one rule, bounded", () => {
  test("the whole file, trimmed (a trailing line break is fine)", () => {
    expect(readTokenFile(file("token.txt", "  tok-SECRET-123\r\n"))).toBe("tok-SECRET-123");
    expect(readTokenFile(file("exact.txt", `${"t".repeat(maxTokenFileBytes - 1)}\n`))).toBe("t".repeat(maxTokenFileBytes - 1));
  });

  test("a second line is refused, naming the flag and the file, quoting nothing of it", () => {
    const path = file("two.txt", "tok-SECRET-123\nsecond\n");
    expect(() => readTokenFile(path)).toThrow(
      new TypeError(`--token-file ${path}: the file holds 2 lines; expected one line holding the access token (nothing else)`),
    );
    expect(() => readTokenFile(path)).not.toThrow(/SECRET/);
  });

  test("a FIFO with no writer is refused at once, not waited on", () => {
    const fifo = join(scratch, "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(() => readTokenFile(fifo)).toThrow(
      new TypeError(`--token-file ${fifo}: is a FIFO (a named pipe); expected a regular file of at most ${maxTokenFileBytes} bytes holding the access token`),
    );
  });

  test.each([
    ["/dev/zero", "is a character device"],
    [scratch, "is a directory"],
  ])("%s is refused unread: %s", (path, kind) => {
    expect(() => readTokenFile(path, "--token-file")).toThrow(`--token-file ${path}: ${kind}; expected a regular file`);
  });

  test("a file over the limit is refused by its size, unread (a sparse 8 GiB file too)", () => {
    const large = file("large.txt", "x".repeat(maxTokenFileBytes + 1));
    expect(() => readTokenFile(large)).toThrow(
      `--token-file ${large}: holds ${maxTokenFileBytes + 1} bytes; expected a regular file of at most ${maxTokenFileBytes} bytes`,
    );
    const huge = file("huge.txt", "");
    truncateSync(huge, 8 * 2 ** 30);
    expect(() => readTokenFile(huge)).toThrow(`--token-file ${huge}: holds ${8 * 2 ** 30} bytes`);
  });

  test("a missing file names the flag, the path and the error code", () => {
    const missing = join(scratch, "missing.txt");
    expect(() => readTokenFile(missing, "tokenFile")).toThrow(
      new TypeError(`tokenFile ${missing}: cannot read it (ENOENT); expected a regular file of at most ${maxTokenFileBytes} bytes holding the access token`),
    );
  });
});

describe("tokenOf: --token-file, else --token, else BOT_CONVERSATION_TOKEN", () => {
  const tokenFile = file("one.txt", "from-file\n");
  test.each([
    [{ tokenFile, token: "from-flag" }, { BOT_CONVERSATION_TOKEN: "from-env" }, "from-file"],
    [{ token: " from-flag " }, { BOT_CONVERSATION_TOKEN: "from-env" }, "from-flag"],
    [{}, { BOT_CONVERSATION_TOKEN: " from-env\n" }, "from-env"],
  ])("%j with %j reads %s", (flags, env, token) => {
    expect(tokenOf(flags, env)).toBe(token);
  });

  test("none, or only white space, is a TypeError naming the three", () => {
    for (const [flags, env] of [
      [{}, {}],
      [{ token: " " }, {}],
      [{}, { BOT_CONVERSATION_TOKEN: "" }],
    ] as const) {
      expect(() => tokenOf(flags, env)).toThrow(
        new TypeError("no token: pass --token-file <path> or --token <token>, or set BOT_CONVERSATION_TOKEN; expected the access token sent in X-Token"),
      );
    }
  });
});

test("one exit-code table", () => {
  // The numbers scripts rely on (the CLI's README documents them).
  expect(exitCodes).toEqual({ ok: 0, failed: 1, usage: 2, incomplete: 3, interrupted: 130 });
});

describe("portOf: the one check of a --port", () => {
  test.each([
    ["0", 0],
    ["4011", 4011],
    ["65535", 65535],
  ])("%j is %d", (text, port) => {
    expect(portOf(text, "--port / SANDBOX_PORT")).toBe(port);
  });

  test.each(["65536", "-1", "1.5", "eighty", "", " 80", "0x50", "999999"])("%j is refused, naming the source and quoting the text", (text) => {
    expect(() => portOf(text, "--port / DOCS_PORT")).toThrow(
      new TypeError(`--port / DOCS_PORT: expected an integer from 0 to 65535; got ${JSON.stringify(text)}`),
    );
  });
});
