import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { type LaunchedSandbox, launchSandbox } from "../src/index.ts";
import { exampleFixture } from "./support/fixture.ts";

const scratch = mkdtempSync(join(tmpdir(), "sandbox-data-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const running = new Set<LaunchedSandbox>();
afterAll(async () => {
  for (const sandbox of running) await sandbox.stop("SIGKILL");
});
async function start(args: string[]): Promise<LaunchedSandbox> {
  const sandbox = await launchSandbox(args);
  running.add(sandbox);
  return sandbox;
}
async function stop(sandbox: LaunchedSandbox, signal: NodeJS.Signals = "SIGTERM") {
  running.delete(sandbox);
  return sandbox.stop(signal);
}
/** A start that must fail: its exit code and what it printed. */
async function refused(args: string[]): Promise<{ code: number | null; output: string }> {
  const failure = (await start(args).then(
    async (sandbox) => {
      await stop(sandbox, "SIGKILL");
      throw new Error(`started with ${args.join(" ")}`);
    },
    (error: unknown) => error,
  )) as { code: number | null; output: string };
  return failure;
}
/** The one line a refused start prints (the ExperimentalWarning of Node 22's node:sqlite aside). */
const refusalLine = (output: string) => output.split("\n").filter((line) => line !== "" && !/ExperimentalWarning|--trace-warnings/.test(line));
/** Expects a start on `data` to be refused with exit code 1 and one line: `--data <data>: ` then text matching `problem`. */
async function expectRefusedWith(data: string, problem: string): Promise<void> {
  const failure = await refused(["--data", data]);
  expect(failure.code).toBe(1);
  const lines = refusalLine(failure.output);
  expect(lines, failure.output).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^--data ${data.replaceAll(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: ${problem}$`));
}

const headers = { "x-token": "sandbox-token", "content-type": "application/json" };
const firePath = "/api/v1/runtime/simple/external/events";
const conversationId = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";
const fire = (url: string, marker: string) =>
  fetch(`${url}${firePath}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: marker } }),
  });
/** Every fired event's marker, following the pages. */
async function firedMarkers(url: string): Promise<string[]> {
  const markers: string[] = [];
  for (let next: string | null = "/_sandbox/fired-events?limit=10000"; next !== null; ) {
    const response: Response = await fetch(`${url}${next}`, { headers });
    markers.push(...((await response.json()) as { externalEventPayload: { orderNumber: string } }[]).map((event) => event.externalEventPayload.orderNumber));
    next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get("link") ?? "")?.[1] ?? null;
  }
  return markers;
}
const fixtureFile = join(scratch, "fixture.json");
writeFileSync(fixtureFile, JSON.stringify(exampleFixture()));

/** A data file made by a sandbox (the fixture's data and one fired event), then stopped. */
async function madeDataFile(name: string): Promise<string> {
  const data = join(scratch, name);
  const sandbox = await start(["--data", data, "--fixture", fixtureFile]);
  expect((await fire(sandbox.url, "made")).status).toBe(200);
  await stop(sandbox);
  return data;
}

describe("--data names only a regular file (issue 29, point 2)", { timeout: 120_000 }, () => {
  test("a device node is refused in one line naming it, and stays a device node", async () => {
    const device = join(scratch, "null-device");
    // A private device node with /dev/null's numbers (1, 3), made here: the machine's own /dev/null is never used.
    execFileSync("mknod", [device, "c", "1", "3"]);
    const failure = await refused(["--data", device]);
    expect(failure.code).toBe(1);
    expect(refusalLine(failure.output)).toEqual([
      `--data ${device}: is a character device, not a regular file; give the path of a sandbox data file (a new one is created)`,
    ]);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  test("a symbolic link is refused, and the file it points to is not written", async () => {
    const target = join(scratch, "link-target.txt");
    writeFileSync(target, "someone's notes\n");
    const link = join(scratch, "link.db");
    symlinkSync(target, link);
    const failure = await refused(["--data", link]);
    expect(refusalLine(failure.output)).toEqual([
      `--data ${link}: is a symbolic link (give the file it points to), not a regular file; give the path of a sandbox data file (a new one is created)`,
    ]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("someone's notes\n");
  });

  test("a FIFO, a socket and a directory are refused, each named, without a hang", async () => {
    const fifo = join(scratch, "pipe");
    execFileSync("mkfifo", [fifo]);
    const socketPath = join(scratch, "socket");
    const server = createServer();
    server.listen(socketPath);
    await once(server, "listening");
    const directory = join(scratch, "folder");
    mkdirSync(directory);
    try {
      for (const [path, kind] of [
        [fifo, "a FIFO (named pipe)"],
        [socketPath, "a socket"],
        [directory, "a directory"],
      ] as const) {
        const failure = await refused(["--data", path]);
        expect(failure.code).toBe(1);
        expect(refusalLine(failure.output)).toEqual([
          `--data ${path}: is ${kind}, not a regular file; give the path of a sandbox data file (a new one is created)`,
        ]);
      }
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    } finally {
      server.close();
    }
  });

  test("a file this process cannot write is refused at start, not at the first fire", async () => {
    const data = join(scratch, "read-only.db");
    const made = await madeDataFile("to-copy.db");
    writeFileSync(data, readFileSync(made));
    const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
    const sandbox = [process.execPath, main, "--port", "0", "--data", data];
    // Root ignores permission bits (and another user may not reach this clone's Node: a folder only root may
    // enter), so as root the file is bind-mounted read-only in a mount namespace of the child's own; as
    // anyone else, the permission bits say it.
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) chmodSync(data, 0o444);
    const [command, ...args] = asRoot
      ? ["unshare", "--mount", "sh", "-c", 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"', data, ...sandbox]
      : sandbox;
    const child = spawn(command!, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(1);
    expect(refusalLine(output)).toEqual([
      `--data ${data}: the file cannot be written by this process (${asRoot ? "EROFS" : "EACCES"}); give a file it can write`,
    ]);
    expect(readFileSync(data)).toEqual(readFileSync(made));
  });
});

describe("--data holds a sandbox database or nothing (issue 29, points 1 and 2)", { timeout: 120_000 }, () => {
  test("a text file, another program's SQLite file and a layout-4 file are refused in one line each, and left as they were", async () => {
    const text = join(scratch, "notes.txt");
    writeFileSync(text, "not a database\n");
    const other = join(scratch, "other-program.db");
    const database = new DatabaseSync(other);
    database.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);");
    database.close();
    const otherBytes = readFileSync(other);
    const journal = join(scratch, "layout-4.db");
    writeFileSync(journal, `${JSON.stringify({ "bot-conversation-sandbox": 4, source: { seed: "s", conversations: 5 } })}\n{"fired":{}}\n`);
    const journalBytes = readFileSync(journal);
    expect(refusalLine((await refused(["--data", text])).output)).toEqual([
      `--data ${text}: is not a sandbox data file: it does not start with SQLite's header ("SQLite format 3")`,
    ]);
    expect(refusalLine((await refused(["--data", other])).output)).toEqual([
      `--data ${other}: is a SQLite database of another program (application_id 0, tables: invoices), not a sandbox data file`,
    ]);
    expect(refusalLine((await refused(["--data", journal])).output)).toEqual([
      `--data ${journal}: is a data file of layout 4 (JSON lines), which this sandbox no longer reads (expected layout 6, a SQLite database); start with a new --data file (its events stay readable in it, one JSON object per line)`,
    ]);
    expect(readFileSync(text, "utf8")).toBe("not a database\n");
    expect(readFileSync(other)).toEqual(otherBytes);
    expect(readFileSync(journal)).toEqual(journalBytes);
  });

  test.each([
    ["a nonsense seed", JSON.stringify({ seed: 7, conversations: 5 }), "the source's seed must be a string; got 7"],
    [
      "an unknown state",
      JSON.stringify({ seed: "s", conversations: 5, state: "huge" }),
      'the source\'s state must be one of default, empty, bot-without-triggers, large; got "huge"',
    ],
    [
      "a fixture with duplicate conversation ids",
      JSON.stringify({ fixture: { ...exampleFixture(), conversations: [exampleFixture().conversations[0], exampleFixture().conversations[0]] } }),
      'the fixture: $.fixture.conversations[1].conversation.id: duplicate conversation id "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c", first at $.conversations[0].conversation.id',
    ],
    [
      "a fixture of the wrong shape",
      JSON.stringify({ fixture: { bots: "none", conversations: [] } }),
      'the fixture: $.fixture.bots: expected an array; got "none"',
    ],
  ])("a database whose source is %s is refused naming the first problem, with the checks of PUT /_sandbox/fixture", async (name, source, problem) => {
    const data = await madeDataFile(`source-${name.replaceAll(" ", "-")}.db`);
    const database = new DatabaseSync(data);
    database.prepare("UPDATE source SET source = ?").run(source);
    database.close();
    const failure = await refused(["--data", data]);
    expect(failure.code).toBe(1);
    expect(refusalLine(failure.output)).toEqual([`--data ${data}: is not a sandbox data file: ${problem}`]);
  });

  test("a sandbox database whose tables were changed, or of a newer layout, is refused naming it", async () => {
    const changed = await madeDataFile("changed.db");
    let database = new DatabaseSync(changed);
    database.exec("ALTER TABLE events ADD COLUMN note TEXT");
    database.close();
    expect(refusalLine((await refused(["--data", changed])).output)).toEqual([
      `--data ${changed}: holds a sandbox database of layout 6 whose tables were changed (their schema is not the sandbox's)`,
    ]);
    const newer = await madeDataFile("newer.db");
    database = new DatabaseSync(newer);
    database.exec("PRAGMA user_version = 7");
    database.close();
    expect(refusalLine((await refused(["--data", newer])).output)).toEqual([
      `--data ${newer}: holds a sandbox database of another layout (version 7, expected 6); start with a new --data file`,
    ]);
  });

  test("a damaged file (bytes overwritten inside the events' pages) is refused at start, not answered with 500s", async () => {
    const data = await madeDataFile("damaged.db");
    const database = new DatabaseSync(data);
    const insert = database.prepare(
      "INSERT INTO events (received_at, sent_conversation_id, sent_external_conversation_id, external_event_id, payload, conversation_id) VALUES ('2026-11-20T09:30:00.000Z', NULL, NULL, 'e', NULL, 'c')",
    );
    database.exec("BEGIN");
    for (let index = 0; index < 2000; index++) insert.run();
    database.exec("COMMIT");
    database.close();
    const bytes = readFileSync(data);
    bytes.fill(0xff, 5 * 4096, 6 * 4096);
    writeFileSync(data, bytes);
    await expectRefusedWith(data, "is (damaged \\(SQLite's quick_check: .+\\); start with a new --data file|not a sandbox data file: .+)");
  });

  test("a second sandbox on the same file is refused in one line naming it; the first keeps serving, and its events survive", async () => {
    const data = join(scratch, "shared.db");
    const first = await start(["--data", data, "--fixture", fixtureFile]);
    expect((await fire(first.url, "first-1")).status).toBe(200);
    const failure = await refused(["--data", data]);
    expect(failure.code).toBe(1);
    expect(refusalLine(failure.output)).toEqual([`--data ${data}: is in use by another sandbox (or another program): one sandbox per --data file`]);
    expect((await fire(first.url, "first-2")).status).toBe(200);
    await stop(first);
    const again = await start(["--data", data]);
    expect(await firedMarkers(again.url)).toEqual(["first-1", "first-2"]);
    await stop(again);
  });

  test("committed frames of the write-ahead log damaged on disk: refused at start in one line naming the file, and the files left as they were (issue 38)", async () => {
    const data = join(scratch, "damaged-log.db");
    const sandbox = await start(["--data", data, "--fixture", fixtureFile]);
    // One commit each, in the write-ahead log: SIGKILL leaves it there, uncheckpointed.
    for (let index = 0; index < 40; index++) expect((await fire(sandbox.url, `f-${index}`)).status).toBe(200);
    await stop(sandbox, "SIGKILL");
    const log = `${data}-wal`;
    const bytes = readFileSync(log);
    const pageSize = bytes.readUInt32BE(8);
    const frames = (bytes.length - 32) / (24 + pageSize);
    expect(frames).toBeGreaterThan(40);
    // 14 bytes inside the page of frame 20, as a bad sector or a stray write would leave them.
    bytes.fill(0x5a, 32 + 19 * (24 + pageSize) + 24 + 100, 32 + 19 * (24 + pageSize) + 24 + 114);
    writeFileSync(log, bytes);
    const before = { file: readFileSync(data), log: readFileSync(log) };
    await expectRefusedWith(data, `its write-ahead log .+-wal is damaged: frame 20 of ${frames} fails its checksum, .+`);
    expect({ file: readFileSync(data).equals(before.file), log: readFileSync(log).equals(before.log) }).toEqual({ file: true, log: true });
  });

  test("a write-ahead log that is a symbolic link is refused naming it as such, and what it points to is not written (issue 38)", async () => {
    const data = await madeDataFile("linked-log.db");
    const target = join(scratch, "linked-log-target");
    writeFileSync(target, "not a log");
    symlinkSync(target, `${data}-wal`);
    const failure = await refused(["--data", data]);
    expect(refusalLine(failure.output)).toEqual([
      `--data ${data}: its write-ahead log ${data}-wal is a symbolic link, which SQLite would write through; remove it (a sandbox never makes one)`,
    ]);
    expect(readFileSync(target, "utf8")).toBe("not a log");
  });

  test("a cut last write (the write-ahead log cut short after SIGKILL) loses at most that write: the file starts, and later fires are kept", async () => {
    const data = join(scratch, "cut.db");
    const sandbox = await start(["--data", data, "--fixture", fixtureFile]);
    for (const marker of ["a", "b", "c"]) expect((await fire(sandbox.url, marker)).status).toBe(200);
    await stop(sandbox, "SIGKILL");
    const log = `${data}-wal`;
    truncateSync(log, statSync(log).size - 100);
    const restarted = await start(["--data", data]);
    const kept = await firedMarkers(restarted.url);
    // The cut frame held the last commit: it is gone, every earlier one is whole.
    expect(kept).toEqual(["a", "b"]);
    expect((await fire(restarted.url, "d")).status).toBe(200);
    await stop(restarted, "SIGKILL");
    const again = await start(["--data", data]);
    expect(await firedMarkers(again.url)).toEqual(["a", "b", "d"]);
    await stop(again);
  });
});

describe("--data at scale (issue 29, point 1)", { timeout: 300_000 }, () => {
  test("1,000,000 fired events: the sandbox starts, pages them with a cursor, and a clear gives the space back", async () => {
    const data = await madeDataFile("million.db");
    const database = new DatabaseSync(data);
    database.exec("DELETE FROM events");
    const insert = database.prepare(
      "INSERT INTO events (received_at, sent_conversation_id, sent_external_conversation_id, external_event_id, payload, conversation_id) VALUES ('2026-11-20T09:30:00.000Z', ?, NULL, 'order-status-changed', ?, ?)",
    );
    database.exec("BEGIN");
    for (let index = 0; index < 1_000_000; index++) insert.run(conversationId, `{"orderNumber":"m-${index}"}`, conversationId);
    database.exec("COMMIT");
    database.close();
    const before = statSync(data).size;
    expect(before).toBeGreaterThan(50 * 1024 * 1024);

    const sandbox = await start(["--data", data]);
    const first = await fetch(`${sandbox.url}/_sandbox/fired-events`, { headers });
    const page = (await first.json()) as { externalEventPayload: { orderNumber: string } }[];
    expect(page.map((event) => event.externalEventPayload.orderNumber)).toEqual(Array.from({ length: 1000 }, (_, index) => `m-${index}`));
    expect(first.headers.get("x-next-cursor")).toBe("1000");
    expect(first.headers.get("link")).toBe('</_sandbox/fired-events?cursor=1000>; rel="next"');
    const last = await fetch(`${sandbox.url}/_sandbox/fired-events?cursor=999500&limit=10000`, { headers });
    expect(((await last.json()) as unknown[]).length).toBe(500);
    expect(last.headers.get("x-next-cursor")).toBeNull();
    expect((await fire(sandbox.url, "after-million")).status).toBe(200);

    expect((await fetch(`${sandbox.url}/_sandbox/fired-events`, { method: "DELETE", headers })).status).toBe(204);
    expect(await firedMarkers(sandbox.url)).toEqual([]);
    await stop(sandbox);
    expect(statSync(data).size).toBeLessThan(before / 20);
  });

  test("a reset gives the space back too, and keeps the new source", async () => {
    const data = join(scratch, "reset-space.db");
    const sandbox = await start(["--data", data, "--fixture", fixtureFile]);
    const payload = "x".repeat(50_000);
    for (let round = 0; round < 4; round++) {
      await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          fetch(`${sandbox.url}${firePath}`, {
            method: "POST",
            headers,
            body: JSON.stringify({
              conversationId,
              externalEventId: "order-status-changed",
              externalEventPayload: { orderNumber: `${round}-${index}-${payload}` },
            }),
          }),
        ),
      );
    }
    const full = statSync(data).size + statSync(`${data}-wal`).size;
    expect(full).toBeGreaterThan(8 * 1024 * 1024);
    expect((await fetch(`${sandbox.url}/_sandbox/reset`, { method: "POST", headers, body: JSON.stringify({ seed: "after", conversations: 5 }) })).status).toBe(
      200,
    );
    // Given back after the answer (best effort): waited for, with a guard against a hang.
    await expect.poll(() => statSync(data).size + statSync(`${data}-wal`).size, { timeout: 20_000 }).toBeLessThan(full / 20);
    await stop(sandbox);
    const again = await start(["--data", data]);
    expect(
      ((await (await fetch(`${again.url}/_sandbox/bots`, { headers })).json()) as { conversations: number }[]).reduce((sum, bot) => sum + bot.conversations, 0),
    ).toBe(5);
    await stop(again);
  });
});

describe("SIGKILL during bursts of concurrent fires, with clears and resets between (issue 29)", { timeout: 300_000 }, () => {
  test("over several rounds, every acknowledged fire since the last clear or reset is there exactly once after a restart, and nothing from before it", async () => {
    const data = join(scratch, "bursts.db");
    let sandbox = await start(["--data", data]);
    for (let round = 0; round < 3; round++) {
      /** A burst of 16 writers firing `count` events in all; resolves to the markers acknowledged. */
      const burst = async (name: string, count: number, killAfter?: number) => {
        const acknowledged: string[] = [];
        let sent = 0;
        const writer = async () => {
          while (sent < count) {
            const marker = `${round}-${name}-${sent++}`;
            const response = await fire(sandbox.url, marker).catch(() => undefined);
            if (!response) return;
            if (response.status === 200) acknowledged.push(marker);
            if (killAfter !== undefined && acknowledged.length >= killAfter && sandbox.process.exitCode === null && sandbox.process.signalCode === null)
              sandbox.process.kill("SIGKILL");
          }
        };
        await Promise.all(Array.from({ length: 16 }, writer));
        return acknowledged;
      };
      expect(await burst("before-clear", 200)).toHaveLength(200);
      expect((await fetch(`${sandbox.url}/_sandbox/fired-events`, { method: "DELETE", headers })).status).toBe(204);
      expect(await burst("before-reset", 200)).toHaveLength(200);
      expect((await fetch(`${sandbox.url}/_sandbox/reset`, { method: "POST", headers, body: JSON.stringify({ seed: `round-${round}` }) })).status).toBe(200);
      const acknowledged = await burst("killed", 100_000, 150 + round * 100);
      expect(await stop(sandbox)).toMatchObject({ signal: "SIGKILL" });
      expect(acknowledged.length).toBeGreaterThanOrEqual(150 + round * 100);
      sandbox = await start(["--data", data]);
      const kept = await firedMarkers(sandbox.url);
      const counts = new Map<string, number>();
      for (const marker of kept) counts.set(marker, (counts.get(marker) ?? 0) + 1);
      expect(acknowledged.filter((marker) => counts.get(marker) !== 1)).toEqual([]);
      // Beside the acknowledged ones, at most the fires the kill cut off before their answer; none from before the reset.
      expect(kept.filter((marker) => !marker.startsWith(`${round}-killed-`))).toEqual([]);
      expect(kept.length - acknowledged.length).toBeLessThanOrEqual(16);
      expect(((await (await fetch(`${sandbox.url}/_sandbox/bots`, { headers })).json()) as unknown[]).length).toBe(3);
    }
    await stop(sandbox);
  });
});

/**
 * A sandbox on `data` whose files may grow to 2 MiB at most: a file-size limit (`ulimit -f`, in blocks of 512 bytes)
 * on the sandbox alone. Past it, a write fails with EFBIG (Node ignores SIGXFSZ), as it would on a full disk; its start
 * writes far less.
 */
async function startLimited(data: string) {
  const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
  const child = spawn("sh", ["-c", 'ulimit -f 4096 && exec "$@"', "sh", process.execPath, main, "--port", "0", "--data", data, "--fixture", fixtureFile], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, "exit");
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  try {
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    return { url: line.replace("Sandbox ready at ", ""), output: () => output, kill };
  } catch (error) {
    await kill();
    throw error;
  }
}

/** Fires four at a time with payloads of 100 kB until one is refused: the markers acknowledged, and the refusal. */
async function fireUntilRefused(url: string): Promise<{ acknowledged: string[]; refused: Response | undefined }> {
  const payload = "x".repeat(100_000);
  const acknowledged: string[] = [];
  let refused: Response | undefined;
  for (let index = 0; refused === undefined && index < 200; index++) {
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, writer) => fire(url, `${index}-${writer}-${payload}`).then((response) => ({ response, marker: `${index}-${writer}` }))),
    );
    for (const { response, marker } of answers) {
      if (response.status === 200) acknowledged.push(marker);
      else refused ??= response;
    }
  }
  return { acknowledged, refused };
}

/** The markers of the fired events, without their payloads' padding, sorted (four fires at once need not keep their order). */
const sortedMarkers = (markers: string[]) => markers.map((marker) => marker.slice(0, marker.lastIndexOf("-"))).sort();

describe("a commit that fails (issue 29)", () => {
  test("a fire whose commit fails (the file may grow no more) is answered 503, not kept, and the sandbox goes on answering", { timeout: 120_000 }, async () => {
    const data = join(scratch, "full.db");
    const sandbox = await startLimited(data);
    try {
      const { acknowledged, refused } = await fireUntilRefused(sandbox.url);
      expect(refused?.status).toBe(503);
      expect(refused?.headers.get("content-type")).toBe("application/json");
      const problem = (await refused!.json()) as { status: number; detail: string };
      expect(problem.status).toBe(503);
      expect(problem.detail).toMatch(
        /^The sandbox could not keep the event, so it was not fired \(--data file: .+\); send it again once the sandbox can write\.$/,
      );
      expect(sandbox.output()).toContain(`sandbox: --data ${data}: a commit failed (`);
      // The sandbox still answers, from the data in memory.
      expect((await fetch(`${sandbox.url}/api/v2/channels/conversations`, { headers })).status).toBe(200);
      expect(acknowledged.length).toBeGreaterThan(0);
      await sandbox.kill();
      const again = await start(["--data", data]);
      // Exactly the acknowledged fires.
      expect(sortedMarkers(await firedMarkers(again.url))).toEqual(acknowledged.sort());
      await stop(again);
    } finally {
      await sandbox.kill();
    }
  });

  test.each([
    ["a clear", "DELETE", "/_sandbox/fired-events", null, 204],
    ["a reset", "POST", "/_sandbox/reset", JSON.stringify({ seed: "after-full", conversations: 5 }), 200],
  ])(
    "%s on a full disk is answered by what was committed, and the process serves what the file holds (issue 38)",
    { timeout: 120_000 },
    async (_name, method, path, body, success) => {
      const sandbox = await startOnFullDisk(method);
      try {
        const { acknowledged, refused } = await fireUntilRefused(sandbox.url);
        expect(refused?.status).toBe(503);
        const conversations = async (url: string) =>
          ((await (await fetch(`${url}/_sandbox/bots`, { headers })).json()) as { conversations: number }[]).reduce((sum, bot) => sum + bot.conversations, 0);
        const before = await conversations(sandbox.url);
        const answer = await fetch(`${sandbox.url}${path}`, { method, headers, body });
        // Committed (on a full disk, its few pages may still fit): the success, whatever giving the space back after the
        // answer meets; not committed: a 503 naming the file, and nothing changed. Never a 500.
        expect([success, 503], await answer.clone().text()).toContain(answer.status);
        const committed = answer.status === success;
        if (!committed)
          expect(((await answer.json()) as { detail: string }).detail).toMatch(
            /^--data .+data\.db: the (clear|reset) could not be committed \(database or disk is full\); nothing was changed\.$/,
          );
        const expected = committed ? { markers: [], conversations: method === "POST" ? 5 : before } : { markers: acknowledged.sort(), conversations: before };
        expect({ markers: sortedMarkers(await firedMarkers(sandbox.url)), conversations: await conversations(sandbox.url) }).toEqual(expected);
        expect(acknowledged.length).toBeGreaterThan(0);
        const copy = await sandbox.stopAndCopy();
        const again = await start(["--data", copy]);
        expect({ markers: sortedMarkers(await firedMarkers(again.url)), conversations: await conversations(again.url) }).toEqual(expected);
        await stop(again);
      } finally {
        await sandbox.stopAndCopy();
      }
    },
  );
});

/**
 * A sandbox whose `--data` file is on a file system of 4 MiB (a tmpfs mounted in a mount namespace of its own, so no
 * privilege is needed): the write-ahead log and the file share its space, as on a full disk. `stopAndCopy` kills the
 * sandbox (SIGKILL) and copies the files out of the namespace, resolving to the copy of the data file.
 */
async function startOnFullDisk(name: string) {
  const mount = mkdtempSync(join(scratch, "tmpfs-"));
  const out = mkdtempSync(join(scratch, `full-${name}-`));
  const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
  const script =
    'mount -t tmpfs -o size=4m tmpfs "$1" || exit 1; "$2" "$3" --port 0 --data "$1/data.db" --fixture "$4" & sandbox=$!; echo "pid $sandbox"; wait $sandbox; cp "$1"/* "$5"/';
  const child = spawn("unshare", ["--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", mount, process.execPath, main, fixtureFile, out], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, "exit");
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const stopAndCopy = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(pid, "SIGKILL");
    await exited;
    return join(out, "data.db");
  };
  const pid = Number(((await lines.next()).value as string | undefined)?.replace("pid ", ""));
  const ready = (await lines.next()).value as string | undefined;
  if (!ready?.startsWith("Sandbox ready at ")) {
    child.kill("SIGKILL");
    throw new Error(`the sandbox on a tmpfs did not start: ${ready}\n${output}`);
  }
  return { url: ready.replace("Sandbox ready at ", ""), output: () => output, stopAndCopy };
}

describe("a --data file removed or replaced while the sandbox runs (issue 38)", { timeout: 120_000 }, () => {
  test("removed: a fire, a clear and a reset are answered 503 naming the file, never acknowledged into the file no path names", async () => {
    const data = join(scratch, "removed.db");
    const sandbox = await start(["--data", data, "--fixture", fixtureFile]);
    expect((await fire(sandbox.url, "before")).status).toBe(200);
    rmSync(data);
    const refused = await fire(sandbox.url, "after");
    expect(refused.status).toBe(503);
    const problem = (await refused.json()) as { detail: string };
    expect(problem.detail).toContain(`--data ${data} was removed while the sandbox ran`);
    for (const request of [
      fetch(`${sandbox.url}/_sandbox/fired-events`, { method: "DELETE", headers }),
      fetch(`${sandbox.url}/_sandbox/reset`, { method: "POST", headers, body: "{}" }),
    ]) {
      const response = await request;
      expect(response.status).toBe(503);
      expect(((await response.json()) as { detail: string }).detail).toContain(`--data ${data} was removed`);
    }
    await stop(sandbox);
  });

  test("replaced by a rename: a fire is answered 503 naming the file, and every fire acknowledged since is in the file at the path", async () => {
    const data = join(scratch, "renamed.db");
    const other = await madeDataFile("renamed-other.db");
    const sandbox = await start(["--data", data, "--fixture", fixtureFile]);
    expect((await fire(sandbox.url, "before")).status).toBe(200);
    renameSync(other, data);
    const refused = await fire(sandbox.url, "after");
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { detail: string }).detail).toContain(`--data ${data} was replaced`);
    await stop(sandbox);
    // The file now at the path holds what it held: nothing was acknowledged that is not in it.
    const again = await start(["--data", data]);
    expect(await firedMarkers(again.url)).toEqual(["made"]);
    await stop(again);
  });
});

describe("a refusal names the real cause (issue 38)", () => {
  test("a new --data file on a full disk is refused as no space left on device, naming the file, not as 'not a sandbox data file'", {
    timeout: 60_000,
  }, async () => {
    const mount = mkdtempSync(join(scratch, "tmpfs-full-"));
    const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
    // A tmpfs of 1 MiB in a mount namespace of its own, filled to the last byte before the sandbox starts on it.
    const script =
      'mount -t tmpfs -o size=1m tmpfs "$1" || exit 9; dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null; "$2" "$3" --port 0 --data "$1/new.db" --fixture "$4"';
    const child = spawn("unshare", ["--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", mount, process.execPath, main, fixtureFile], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code, output).toBe(1);
    expect(refusalLine(output)).toEqual([`--data ${mount}/new.db: cannot be written: no space left on device (the disk that holds it is full)`]);
  });
});
