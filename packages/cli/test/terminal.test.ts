import { mkdtemp, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listenOnLoopback } from "@bot-conversation/test-support/loopback";
import { programForTests } from "@bot-conversation/test-support/machine-programs";
import { describe, expect, it } from "vitest";
import { binPath } from "./support/cli.ts";
import { fixture } from "./support/fixture.ts";
import { envOf, firedEvents, token, useSandbox } from "./support/sandbox.ts";
import { useTerminal } from "./support/tmux.ts";

const generated = useSandbox({ seed: "cli-terminal", conversations: 60 });
const withFixture = useSandbox({ fixture });
const command = `${process.execPath} ${binPath}`;

/** The sandbox's next `times` searches each wait `delayMs` before answering (its faults control). */
async function delaySearches(delayMs: number, times: number): Promise<void> {
  const response = await fetch(`${generated().url}/_sandbox/faults`, {
    method: "POST",
    headers: { "X-Token": token, "Content-Type": "application/json" },
    body: JSON.stringify({ operationId: "searchConversations", status: 200, delayMs, times }),
  });
  expect(response.ok).toBe(true);
}

// Not run where tmux is absent (one line says so); CI installs it first (.ci/provision.sh) and counts them as failed then.
const terminalInstalled = programForTests("tmux", "terminal tests");

describe.skipIf(!terminalInstalled)("on a terminal (tmux)", () => {
  const tableTerminal = useTerminal();
  it("prints a table by default", async () => {
    tableTerminal.start(`${command} search --page-size 3; echo "exit=$?"`, envOf(generated()));
    const screen = await tableTerminal.waitFor(/exit=\d+/);
    expect(screen).toMatch(/ID\s+STATUS\s+CHANNELID\s+MESSAGESCOUNT\s+STARTEDON\s+LATESTMESSAGEON\s+LATESTMESSAGETEXT/);
    expect(screen).toContain("exit=0");
    expect(screen).toMatch(/^3 of 60 conversations; the next page: --page-index \d+; every page: --all$/m);
    expect(screen).not.toContain('{"id"');
  });

  const exportTerminal = useTerminal();
  it("a long export to a file shows a progress bar on stderr (count, rate, estimate), then clears it; the file holds every conversation", async () => {
    // Each page waits 400 ms in the sandbox, so the bar is on the screen long enough to be read.
    await delaySearches(400, 6);
    const file = join(await mkdtemp(join(tmpdir(), "cli-export-")), "out.ndjson");
    exportTerminal.start(`${command} search --all --page-size 10 --output ndjson > ${file}; echo "exit=$?"`, envOf(generated()));
    const bar = await exportTerminal.waitFor(/\d+\/60 conversations \| \d+\/s \| ETA/);
    expect(bar).toMatch(/[█░]+ \d+\/60 conversations \| \d+\/s \| ETA \S+/);
    const done = await exportTerminal.waitFor(/exit=\d+/);
    expect(done).toContain("exit=0");
    expect(done).not.toMatch(/conversations \|/);
    expect((await readFile(file, "utf8")).trimEnd().split("\n")).toHaveLength(60);
  });

  const pipeTerminal = useTerminal();
  it("never shows the bar when stderr is a pipe", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "cli-export-")), "err.txt");
    pipeTerminal.start(`${command} search --all --page-size 10 2> >(cat > ${file}) | wc -l; echo "exit=$?"`, envOf(generated()));
    const screen = await pipeTerminal.waitFor(/exit=\d+/);
    expect(screen).toMatch(/^60$/m);
    expect(await readFile(file, "utf8")).toBe("");
  });

  const confirmTerminal = useTerminal();
  it("fire asks for confirmation: n fires nothing, y fires once", async () => {
    const before = await firedEvents(withFixture());
    const fire = `${command} fire --agent-stage-id bot-1 --external-event-id order-paid --conversation-id c-1 --var amount=5`;
    confirmTerminal.start(`${fire}; echo "first=$?"`, envOf(withFixture()));
    await confirmTerminal.waitFor(/Fire "Order paid" \(order-paid\) into \{"conversationId":"c-1"\} with \{"amount":5\}\? \[y\/N\]/);
    confirmTerminal.keys("n", "Enter");
    const declined = await confirmTerminal.waitFor(/first=\d+/);
    expect(declined).toMatch(/Not fired\.\s+first=1/);
    expect(await firedEvents(withFixture())).toEqual(before);
    confirmTerminal.keys(`${fire}; echo "second=$?"`, "Enter");
    await confirmTerminal.waitFor(/\[y\/N\][\s\S]*\[y\/N\]/);
    confirmTerminal.keys("y", "Enter");
    const accepted = await confirmTerminal.waitFor(/second=\d+/);
    expect(accepted).toMatch(/Fired order-paid into c-1\.\s+second=0/);
    expect(await firedEvents(withFixture())).toHaveLength(before.length + 1);
  });

  const stopTerminal = useTerminal();
  it("Ctrl-C stops an export at once: one line, exit 130", async () => {
    // A server that takes the search and never answers: Ctrl-C is pressed once the request has arrived.
    let arrived!: () => void;
    const searching = new Promise<void>((resolve) => (arrived = resolve));
    const silent = await listenOnLoopback(createServer((request) => void (request.url?.startsWith("/api/v2/channels/conversations") && arrived())));
    try {
      const file = join(await mkdtemp(join(tmpdir(), "cli-export-")), "out.ndjson");
      stopTerminal.start(`${command} search --all --page-size 10 > ${file}; echo "exit=$?"`, {
        BOT_CONVERSATION_BASE_URL: silent.url,
        BOT_CONVERSATION_TOKEN: token,
      });
      await searching;
      stopTerminal.keys("C-c");
      const screen = await stopTerminal.waitFor(/exit=\d+/, 4_000);
      expect(screen).toContain("exit=130");
      expect(screen.split("\n").filter((line) => line.includes("error:"))).toEqual([expect.stringMatching(/^(\^C)?error: .*abort/i)]);
    } finally {
      await silent.close();
    }
  });
});
