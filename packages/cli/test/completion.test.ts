import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { programForTests } from "@bot-conversation/test-support/machine-programs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binPath } from "./support/cli.ts";
import { useTerminal } from "./support/tmux.ts";

/** A folder holding `bot-conversation` (the built bin, as npm links it), put first on the shells' PATH; also their HOME. */
let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "cli-completion-"));
  await writeFile(join(home, "bot-conversation"), `#!/bin/sh\nexec "${process.execPath}" "${binPath}" "$@"\n`);
  await chmod(join(home, "bot-conversation"), 0o755);
});
afterAll(() => rm(home, { recursive: true, force: true }));

// A machine may lack tmux or a shell (the README asks for nothing but Node and npm): their tests are not run
// there, and say so in one line each. CI installs them first (.ci/provision.sh) and counts a test not run as
// failed (.ci/totals.ts).
const terminalInstalled = programForTests("tmux", "completion tests (each shell runs in tmux)");
const shellInstalled = new Map(["bash", "zsh", "fish"].map((shell) => [shell, programForTests(shell, `completion tests in ${shell}`)]));

/** A screen showing every one of `words` as a candidate (a word of its own, in any order: bash and zsh list them in columns, fish one a line with its description). */
const candidates = (...words: string[]) =>
  new RegExp(words.map((word) => `(?=[^]*(?:^|\\s)${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:\\s|$))`).join(""), "m");

/**
 * The shells as a person uses them, in a real terminal (tmux): the script each `completion` prints is
 * loaded, then Tab is pressed after `--status `, `--output nd`, `completion `, a sandbox switch and a
 * partial flag; what the shell shows is read off the screen. Each shell starts from bash, as the terminal does.
 */
describe.each([
  ["bash", "", "source <(bot-conversation completion bash)", ["Tab", "Tab"]],
  ["zsh", "exec zsh -f", "source <(bot-conversation completion zsh)", ["Tab"]],
  ["fish", "exec fish --no-config", "bot-conversation completion fish | source", ["Tab"]],
])("completion in %s (tmux)", (shell, exec, load, listKeys) => {
  const terminal = useTerminal();
  /** Types `line`, presses Tab to list what completes it, waits for `shown`, then clears the line and the screen. */
  const listed = async (line: string, shown: RegExp): Promise<string> => {
    terminal.keys("-l", line);
    terminal.keys(...listKeys);
    const screen = await terminal.waitFor(shown);
    terminal.keys("C-u", "C-l");
    await terminal.waitFor(/^(?![\s\S]*--)/);
    return screen;
  };

  it.skipIf(!terminalInstalled || !shellInstalled.get(shell))(
    "completes the values of --status, --output, completion's shell and the sandbox's switches, and flags",
    async () => {
      // tmux's own PATH wins over a new session's: the folder is put first by the shell itself.
      terminal.start(`export PATH="${home}:$PATH" HOME="${home}"; ${exec}`, {});
      terminal.keys("-l", `${load}; echo loaded-${shell}`);
      terminal.keys("Enter");
      await terminal.waitFor(new RegExp(`^loaded-${shell}$`, "m"));
      terminal.keys("C-l");
      expect(await listed("bot-conversation search --status ", candidates("Active", "Closed", "Operator"))).not.toMatch(/--page-size/);
      expect(await listed("bot-conversation completion ", candidates("bash", "zsh", "fish"))).not.toMatch(/--help/);
      expect(await listed("bot-conversation sandbox --order ", candidates("startedOn-desc", "startedOn-asc", "latestMessageOn-desc"))).not.toMatch(/--port/);
      // One candidate: the shell writes it into the line.
      terminal.keys("-l", "bot-conversation search --output nd");
      terminal.keys("Tab");
      await terminal.waitFor(/bot-conversation search --output ndjson/);
      terminal.keys("C-u", "C-l");
      expect(await listed("bot-conversation search --page-", candidates("--page-index", "--page-size"))).not.toMatch(/--status/);
      // A command's subcommands (workspaces), then each one's own flags and values.
      expect(await listed("bot-conversation workspaces ", candidates("create", "list", "delete"))).not.toMatch(/--help/);
      expect(await listed("bot-conversation workspaces list --", candidates("--base-url", "--admin-token-file", "--timeout", "--output"))).not.toMatch(
        /--seed/,
      );
      expect(await listed("bot-conversation workspaces create mobile --state ", candidates("empty", "large"))).not.toMatch(/--timeout/);
    },
  );
});
