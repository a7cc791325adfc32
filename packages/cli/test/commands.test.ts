import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { binPath, runBin, runCli } from "./support/cli.ts";
import { envOf, useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox({ seed: "cli-commands", conversations: 20 });
const commands = ["search", "triggers", "fire", "mcp", "workspaces", "record", "completion"];

describe("help, completion, check and sandbox", () => {
  it.each(["", ...commands])("`bot-conversation %s --help` shows an example", async (command) => {
    const run = await runCli([...(command ? [command] : []), "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\nExample[^\n]*:\n {2}.*bot-conversation /);
  });

  it("the top-level help lists every command and the exit codes", async () => {
    const { stdout } = await runCli(["--help"]);
    for (const command of [...commands, "check", "sandbox"]) expect(stdout).toMatch(new RegExp(`\\n {2}${command}\\b`));
    expect(stdout).toContain(
      "Exit codes: 0 done, 1 the service refused or failed, 2 bad usage (nothing sent), 3 check stopped by the server's rate limit, 130 stopped by Ctrl-C.",
    );
  });

  it("--version and -V print the package's version, exit 0", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) expect(await runCli([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("an unknown command is one line, exit 2", async () => {
    const run = await runCli(["serch"]);
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toBe("error: unknown command 'serch' (Did you mean search?)\n");
  });

  it("completion bash and zsh are valid shell and complete commands, flags and values; fish lists them", async () => {
    const bash = (await runCli(["completion", "bash"])).stdout;
    execFileSync("bash", ["-n"], { input: bash });
    // The words typed so far, the last one being completed ("" after a space).
    const complete = (...words: string[]) =>
      execFileSync("bash", [
        "-c",
        `${bash}\nCOMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _bot_conversation; echo "\${COMPREPLY[@]}"`,
        "bash",
        "bot-conversation",
        ...words,
      ])
        .toString()
        .trim();
    expect(complete("se")).toBe("search");
    expect(complete("search", "--page-")).toBe("--page-size --page-index");
    expect(complete("fire", "--y")).toBe("--yes");
    // Values, from the same definitions the help lists.
    expect(complete("search", "--status", "")).toBe("Active Closed Operator");
    expect(complete("search", "--output", "n")).toBe("ndjson");
    expect(complete("completion", "")).toBe("bash zsh fish");
    // A value of the user's: nothing offered (the shell falls back to file names).
    expect(complete("search", "--base-url", "")).toBe("");
    // check and sandbox are commands of the tree too: their flags and values complete as every other's.
    expect(complete("check", "--max-")).toBe("--max-requests --max-response-time --max-time --max-failures");
    expect(complete("sandbox", "--sta")).toBe("--state --status-case");
    expect(complete("sandbox", "--state", "")).toBe("default empty bot-without-triggers large");
    expect(complete("sandbox", "--error-media-type", "")).toBe("application/json application/problem+json");
    const zsh = (await runCli(["completion", "zsh"])).stdout;
    expect(zsh).toContain("bashcompinit");
    expect(zsh).toContain(bash.slice(bash.indexOf("_bot_conversation()")));
    const fish = (await runCli(["completion", "fish"])).stdout;
    expect(fish).toContain("complete -c bot-conversation -f -n __fish_use_subcommand -a search");
    expect(fish).toContain("complete -c bot-conversation -n '__fish_seen_subcommand_from search' -l start-from-date -r");
    expect(fish).toContain("complete -c bot-conversation -n '__fish_seen_subcommand_from search' -l status -x -a 'Active Closed Operator'");
    expect(await runCli(["completion", "tcsh"])).toMatchObject({ code: 2, stderr: 'error: completion: expected one of bash, zsh, fish; got "tcsh"\n' });
  });

  it("check is the conformance kit's command in the tree (its options, its report, its exit codes)", async () => {
    const help = await runCli(["check", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--max-requests <n>");
    const run = await runCli(["check", "--base-url", sandbox().url, "--max-requests", "40", "--rate", "0", "--seed", "1"], envOf(sandbox()));
    expect([0, 1]).toContain(run.code);
    expect(run.stdout).toMatch(/seed 1/i);
    const usage = await runCli(["check"], envOf(sandbox()));
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--base-url");
  });

  it("sandbox is the sandbox's command in the tree: a ready line, then SIGTERM stops it", async () => {
    const child = spawn(process.execPath, [binPath, "sandbox", "--port", "0", "--conversations", "5"], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const ready = new Promise<string>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Sandbox ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      }),
    );
    const exited = once(child, "exit");
    try {
      const url = await ready;
      const run = await runCli(["search", "--output", "json"], { BOT_CONVERSATION_BASE_URL: url, BOT_CONVERSATION_TOKEN: "sandbox-token" });
      expect(JSON.parse(run.stdout)).toHaveLength(5);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toEqual([0, null]);
    expect((await runBin(["sandbox", "--port", "none"])).code).not.toBe(0);
  });
});
