/**
 * A `--data` file that fails while the sandbox runs (issues 29 and 38): a commit that fails (a file-size limit, a
 * full disk) is answered 503 and keeps nothing, and a file removed or replaced under the sandbox is named in a 503,
 * never written past; what was acknowledged is what the file holds.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, test } from "vitest";
import { dataFileHarness, fire, firedMarkers, headers, sandboxMain } from "./support/data-file.ts";

const { scratch, fixtureFile, start, stop, madeDataFile } = dataFileHarness();

/**
 * A sandbox on `data` whose files may grow to 2 MiB at most: a file-size limit (`ulimit -f`, in blocks of 512 bytes)
 * on the sandbox alone. Past it, a write fails with EFBIG (Node ignores SIGXFSZ), as it would on a full disk; its start
 * writes far less.
 */
async function startLimited(data: string) {
  const child = spawn(
    "sh",
    ["-c", 'ulimit -f 4096 && exec "$@"', "sh", process.execPath, sandboxMain, "--port", "0", "--data", data, "--fixture", fixtureFile],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
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
  const script =
    'mount -t tmpfs -o size=4m tmpfs "$1" || exit 1; "$2" "$3" --port 0 --data "$1/data.db" --fixture "$4" & sandbox=$!; echo "pid $sandbox"; wait $sandbox; cp "$1"/* "$5"/';
  const child = spawn("unshare", ["--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", mount, process.execPath, sandboxMain, fixtureFile, out], {
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
