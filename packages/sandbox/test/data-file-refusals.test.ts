/**
 * What `--data` may name, checked at start (issue 29, point 2; issue 38): a regular file this process can write,
 * holding a sandbox database of this layout, whole, and used by no other sandbox, or nothing (a new file); anything
 * else is refused in one line naming the file and the real cause, and left as it was.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, test } from "vitest";
import { dataFileHarness, fire, firedMarkers, refusalLine, sandboxMain } from "./support/data-file.ts";
import { exampleFixture } from "./support/fixture.ts";

const { scratch, fixtureFile, start, stop, refused, madeDataFile } = dataFileHarness();

/** Expects a start on `data` to be refused with exit code 1 and one line: `--data <data>: ` then text matching `problem`. */
async function expectRefusedWith(data: string, problem: string): Promise<void> {
  const failure = await refused(["--data", data]);
  expect(failure.code).toBe(1);
  const lines = refusalLine(failure.output);
  expect(lines, failure.output).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^--data ${data.replaceAll(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: ${problem}$`));
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
    const sandbox = [process.execPath, sandboxMain, "--port", "0", "--data", data];
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

describe("a refusal names the real cause (issue 38)", () => {
  test("a new --data file on a full disk is refused as no space left on device, naming the file, not as 'not a sandbox data file'", {
    timeout: 60_000,
  }, async () => {
    const mount = mkdtempSync(join(scratch, "tmpfs-full-"));
    // A tmpfs of 1 MiB in a mount namespace of its own, filled to the last byte before the sandbox starts on it.
    const script =
      'mount -t tmpfs -o size=1m tmpfs "$1" || exit 9; dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null; "$2" "$3" --port 0 --data "$1/new.db" --fixture "$4"';
    const child = spawn("unshare", ["--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", mount, process.execPath, sandboxMain, fixtureFile], {
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
