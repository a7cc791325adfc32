/**
 * The command's log never stops an answer: a sandbox whose stdout nobody reads keeps answering (health
 * included), drops the lines its bounded buffer cannot hold, counts them in `sandbox_log_lines_dropped_total`,
 * and says how many in one line once its reader reads again; one whose reader is gone drops and counts its lines.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { hangGuardMs, heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import pino from "pino";
import { afterEach, describe, expect, test } from "vitest";
import { type LaunchedSandbox, launchSandbox } from "../src/index.ts";
import {
  createLogger,
  droppedLinesMessage,
  flushLogs,
  heldUntilReleased,
  logBuffer,
  type RequestLine,
  requestLineWriter,
  requestMessage,
} from "../src/observe/log.ts";
import { parseMetrics, sampleOf } from "./support/prometheus.ts";

const token = "sandbox-token";
const launched: LaunchedSandbox[] = [];
afterEach(async () => {
  await Promise.all(launched.splice(0).map((sandbox) => sandbox.stop("SIGKILL")));
});

/** A request that must be answered: aborted (and so failing the test) only past a hang guard. */
async function answered(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(hangGuardMs(2_000)) });
  return { status: response.status, text: await response.text() };
}

/** The command with JSON lines on its stdout (a pipe this test reads, or not), stopped after the test. */
async function launchLogging(): Promise<LaunchedSandbox> {
  const sandbox = await launchSandbox(["--conversations", "20", "--log-format", "json"]);
  launched.push(sandbox);
  return sandbox;
}

/** Searches sent 25 at once, `batches` times: the statuses answered. */
async function searchInBatches(url: string, batches: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let batch = 0; batch < batches; batch++) {
    const answers = await Promise.all(Array.from({ length: 25 }, () => answered(`${url}/api/v2/channels/conversations?pageSize=1`, { "x-token": token })));
    statuses.push(...answers.map(({ status }) => status));
  }
  return statuses;
}

const droppedCount = async (url: string) =>
  sampleOf(parseMetrics((await answered(`${url}/_sandbox/metrics`, { "x-token": token })).text), "sandbox_log_lines_dropped_total");

test(
  "a sandbox whose stdout nobody reads keeps answering searches and health; the lines it dropped are counted, and said once the reader reads",
  async () => {
    const sandbox = await launchLogging();
    // Nobody reads the pipe from here on: once this side's buffer is full, the pipe fills and stays full.
    sandbox.process.stdout!.pause();

    // A request line is about 300 bytes: these lines are several times what the pipe and the log's buffer hold
    // (before this change, every request stalled after about 600 of them).
    const searches = Math.ceil((4 * logBuffer.maxBytes) / 300);
    const concurrency = 8;
    let next = 0;
    const statuses = new Map<number, number>();
    const worker = async () => {
      while (next < searches) {
        const index = next++;
        const path = index % 100 === 0 ? "/_sandbox/health" : "/api/v2/channels/conversations?pageSize=1";
        const { status } = await answered(`${sandbox.url}${path}`, { "x-token": token });
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    expect([...statuses]).toEqual([[200, searches]]);
    expect((await answered(`${sandbox.url}/_sandbox/health`)).status).toBe(200);

    // Lines were dropped (the reader still reads nothing), and counted.
    const droppedWhileStalled = await droppedCount(sandbox.url);
    expect(droppedWhileStalled).toBeGreaterThan(0);

    // The reader reads again: the lines kept arrive, then one line says how many were dropped.
    sandbox.process.stdout!.resume();
    type Line = { msg?: string; level?: string; droppedLines?: number };
    const notes = () =>
      sandbox
        .output()
        .split("\n")
        .filter((line) => line.includes(droppedLinesMessage))
        .map((line) => JSON.parse(line) as Line);
    const deadline = performance.now() + hangGuardMs(2_000); // a hang guard, not a bound on speed
    while (notes().length === 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const [note] = notes();
    expect(note).toMatchObject({ level: "warn", msg: droppedLinesMessage });
    expect(note!.droppedLines).toBeGreaterThanOrEqual(droppedWhileStalled!);
    // Every line the reader got is whole: nothing was cut inside a line (the first may be cut by the launcher's 1 MiB tail).
    const [, , ...lines] = sandbox.output().split("\n").filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();

    // Nothing more is dropped once the reader reads: the counter holds exactly what the lines said.
    const total = notes().reduce((sum, line) => sum + line.droppedLines!, 0);
    expect(await droppedCount(sandbox.url)).toBe(total);
    expect(await sandbox.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  },
  heavyTestTimeoutMs,
);

test(
  "SIGTERM to a sandbox whose stdout nobody reads: it exits 0, without waiting for the reader",
  async () => {
    const sandbox = await launchLogging();
    sandbox.process.stdout!.pause();
    // Enough lines to fill the pipe and the reader's side of it, so the last ones wait in the log's buffer at exit.
    expect(new Set(await searchInBatches(sandbox.url, 40))).toEqual(new Set([200]));
    expect(await sandbox.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  },
  heavyTestTimeoutMs,
);

test(
  "a sandbox whose log reader is gone (its stdout closed) keeps answering, and exits 0 on SIGTERM",
  async () => {
    const sandbox = await launchLogging();
    sandbox.process.stdout!.destroy();
    expect(new Set(await searchInBatches(sandbox.url, 20))).toEqual(new Set([200]));
    expect((await answered(`${sandbox.url}/_sandbox/health`)).status).toBe(200);
    expect(await droppedCount(sandbox.url)).toBeGreaterThan(0);
    expect(await sandbox.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  },
  heavyTestTimeoutMs,
);

describe("a request's line", () => {
  const line: RequestLine = {
    requestId: "0f0e0d0c-0b0a-4908-8706-00000000002a",
    method: "GET",
    path: "/api/v2/channels/conversations",
    operation: "searchConversations",
    workspace: "default",
    status: 200,
    durationMs: 0.123456789,
  };
  // Values that JSON must escape, and one past pino's shortcut for short strings.
  const lines: [string, RequestLine][] = [
    ["a search", line],
    ["a token of no workspace (no workspace field)", { ...line, workspace: undefined, status: 401 }],
    ['a path with " and \\', { ...line, path: '/api/v1/runtime/simple/external/events/a"b\\c', operation: "listExternalEventTriggers" }],
    ["control characters, non-ASCII and an emoji", { ...line, path: "/a\u0000b\tc\u001f/é/😀", workspace: "équipe \n" }],
    ["a path of 150 characters with a quote", { ...line, path: `/${"x".repeat(140)}"${"y".repeat(8)}` }],
    ["a whole number of milliseconds, a 500", { ...line, durationMs: 12, status: 500 }],
  ];
  /** The text written to a stream, with each line's time (the only field that may differ) replaced. */
  function capture(): { stream: Writable; text(): string } {
    let text = "";
    const stream = new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    });
    return { stream, text: () => text.replace(/"time":"[^"]*"/g, '"time":"<time>"') };
  }

  test.each(lines)("%s: the very line pino writes for the same fields, and JSON", async (_name, fields) => {
    const prepared = capture();
    const logged = capture();
    requestLineWriter(await createLogger(prepared.stream, "json"))(fields);
    // What the observer wrote before the line was prepared: pino's own line, the duration rounded to the microsecond.
    (await createLogger(logged.stream, "json")).info({ ...fields, durationMs: Math.round(fields.durationMs * 1000) / 1000 }, requestMessage);
    expect(prepared.text()).toBe(logged.text());
    const parsed = JSON.parse(prepared.text()) as Record<string, unknown>;
    expect(parsed).toMatchObject({ level: "info", msg: "request", path: fields.path, status: fields.status });
    expect("workspace" in parsed).toBe(fields.workspace !== undefined);
  });

  test("one writer through lines that repeat the last one's fields, or differ from it in one: each the very line pino writes", async () => {
    const prepared = capture();
    const logged = capture();
    const write = requestLineWriter(await createLogger(prepared.stream, "json"));
    const pinoLogger = await createLogger(logged.stream, "json");
    const sequence: RequestLine[] = [
      line,
      { ...line, requestId: "a-client-id", durationMs: 2 },
      { ...line, status: 404 },
      { ...line, status: 404, path: "/api/v2/channels/other" },
      { ...line, status: 404, path: "/api/v2/channels/other", method: "HEAD" },
      { ...line, status: 404, path: "/api/v2/channels/other", method: "HEAD", operation: "none" },
      { ...line, status: 404, path: "/api/v2/channels/other", method: "HEAD", operation: "none", workspace: undefined },
      { ...line, workspace: "équipe" },
      // The same path in a new string, as each request's path is.
      { ...line, path: `${line.path} `.trimEnd() },
    ];
    for (const fields of sequence) {
      write(fields);
      pinoLogger.info({ ...fields, durationMs: Math.round(fields.durationMs * 1000) / 1000 }, requestMessage);
    }
    expect(prepared.text()).toBe(logged.text());
    expect(prepared.text().trimEnd().split("\n")).toHaveLength(sequence.length);
  });

  test("a lone surrogate is escaped as JSON escapes it, so the line reads back the very path (pino's shortcut writes it raw)", async () => {
    const output = capture();
    const path = "/a\ud800b";
    requestLineWriter(await createLogger(output.stream, "json"))({ ...line, path });
    expect(output.text()).toContain('"path":"/a\\ud800b"');
    expect((JSON.parse(output.text()) as { path: string }).path).toBe(path);
  });

  test("to a file (fs.createWriteStream): batched as the command's stdout is, so flushLogs writes it at once", async () => {
    const folder = mkdtempSync(join(tmpdir(), "sandbox-log-"));
    try {
      const file = join(folder, "sandbox.log");
      const stream = createWriteStream(file);
      const logger = await createLogger(stream, "json");
      requestLineWriter(logger)(line);
      logger.warn({ droppedLines: 3 }, "a warning");
      flushLogs();
      const written = readFileSync(file, "utf8")
        .trimEnd()
        .split("\n")
        .map((text) => JSON.parse(text) as Record<string, unknown>);
      expect(written.map(({ msg, level }) => ({ msg, level }))).toEqual([
        { msg: "request", level: "info" },
        { msg: "a warning", level: "warn" },
      ]);
      expect(written[0]).toMatchObject({ requestId: line.requestId, durationMs: 0.123 });
      stream.end();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("not written when the logger's level is above info; held with the logger's other lines until released", async () => {
    const quiet = capture();
    const logger = await createLogger(quiet.stream, "json");
    logger.level = "warn";
    requestLineWriter(logger)(line);
    expect(quiet.text()).toBe("");

    const output = capture();
    const held = heldUntilReleased(await createLogger(output.stream, "json"));
    held.info({}, "first");
    requestLineWriter(held)(line);
    expect(output.text()).toBe("");
    held.release();
    expect(
      output
        .text()
        .trimEnd()
        .split("\n")
        .map((text) => (JSON.parse(text) as { msg: string }).msg),
    ).toEqual(["first", "request"]);
  });

  test("a logger not made by createLogger (the caller's own pino) gets the same fields through its info", () => {
    const output = capture();
    requestLineWriter(pino(output.stream))(line);
    expect(JSON.parse(output.text())).toMatchObject({ ...line, durationMs: 0.123, msg: "request", level: 30 });
  });
});
