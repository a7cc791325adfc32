import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { tokenFlags } from "@bot-conversation/client/command-line";
import { newCheckCommand } from "@bot-conversation/conformance/command";
import { newSandboxCommand, sandboxStates, switchDefinitions } from "@bot-conversation/sandbox";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { schemaOf } from "../src/description.ts";
import { program } from "../src/index.ts";
import { outputFormats } from "../src/output/format.ts";
import { binPath, runCli } from "./support/cli.ts";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
const tree = program(io, () => undefined);
const command = (name: string): Command => tree.commands.find((candidate) => candidate.name() === name)!;
const longFlags = (of: Command) => of.options.map((option) => option.long);

/**
 * Every TypeScript source of the workspace's packages (tests, generated code and builds left out). The
 * private apps' dev servers (`apps/docs`, `apps/mock`: `--host`, `--port`) are not commands of the toolkit.
 */
function sources(): { path: string; text: string }[] {
  const found: { path: string; text: string }[] = [];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory() && !["node_modules", "dist", "generated"].includes(entry.name)) walk(path);
      else if (entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
        found.push({ path: path.slice(root.length), text: readFileSync(path, "utf8") });
    }
  };
  for (const group of ["packages"]) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      for (const folder of ["src", "scripts"]) {
        try {
          walk(join(root, group, entry.name, folder));
        } catch {
          // A package without that folder.
        }
      }
    }
  }
  return found;
}

describe("one command tree", () => {
  it("one argument parser: no node:util parseArgs, no other parser library, and every commander Command built by a new…Command constructor or the root program", () => {
    const all = sources();
    expect(all.length).toBeGreaterThan(80);
    expect(all.filter(({ text }) => /\bparseArgs\b/.test(text)).map(({ path }) => path)).toEqual([]);
    expect(all.filter(({ text }) => /from "(yargs|minimist|meow|cac|arg|sade|mri|clipanion|citty)(\/[^"]*)?"/.test(text)).map(({ path }) => path)).toEqual([]);
    const builders = all.flatMap(({ path, text }) =>
      [...text.matchAll(/new Command\(/g)].map((match) => {
        // The function the construction stands in: the nearest `function name(` before it.
        const before = text.slice(0, match.index);
        return `${path}: ${[...before.matchAll(/function (\w+)\(/g)].at(-1)?.[1] ?? "(top level)"}`;
      }),
    );
    expect(builders.length).toBeGreaterThanOrEqual(8);
    expect(builders.filter((builder) => !/: (new[A-Z]\w*Command|program)$/.test(builder))).toEqual([]);
    // The roots: the CLI's program, and the bins of the kit's check and of the sandbox, whose program is their command.
    expect(builders.filter((builder) => builder.endsWith(": program"))).toEqual(["packages/cli/src/command.ts: program"]);
  });

  it("check and sandbox are the commands their packages build, every flag defined there once", () => {
    expect(longFlags(command("check"))).toEqual(longFlags(newCheckCommand(io, () => undefined)));
    expect(longFlags(command("sandbox"))).toEqual(longFlags(newSandboxCommand(io, () => undefined)));
    expect(longFlags(command("sandbox"))).toEqual(expect.arrayContaining(switchDefinitions.map((definition) => `--${definition.flag}`)));
    expect(longFlags(command("check"))).toContain("--max-requests");
  });

  it.each(["search", "triggers", "fire", "mcp", "check"])("%s takes the same --token and --token-file (one definition)", (name) => {
    for (const flag of tokenFlags) {
      const option = command(name).options.find((candidate) => candidate.flags === flag.flags);
      expect(option?.description, `${name} ${flag.flags}`).toBe(flag.description);
    }
  });

  it("help lists each enumeration's values from the description: --status, --output; the sandbox's switches and states", async () => {
    const status = schemaOf("ConversationStatus")["enum"] as string[];
    expect(status.length).toBeGreaterThan(1);
    const choices = (values: readonly string[]) => `(choices: ${values.map((value) => JSON.stringify(value)).join(", ")})`;
    const flat = (text: string) => text.replace(/\s+/g, " ");
    const search = flat((await runCli(["search", "--help"])).stdout);
    expect(search).toMatch(new RegExp(`--status <value> [^-]*${choices(status).replace(/[()]/g, "\\$&")}`));
    expect(search).toContain(`--output <format> output format (default: table on a terminal, ndjson when piped) ${choices(outputFormats)}`);
    const sandbox = flat((await runCli(["sandbox", "--help"])).stdout);
    for (const definition of switchDefinitions) {
      if (Array.isArray(definition.values)) expect(sandbox).toContain(choices(definition.values));
    }
    expect(sandbox).toContain(choices(sandboxStates));
    expect(flat((await runCli(["completion", "--help"])).stdout)).toContain(choices(["bash", "zsh", "fish"]));
  });
});

describe("a command loads its own module, not the others'", () => {
  /** The modules of the toolkit the built command loads for `argv`, as its own process: each load traced on stderr by a module hook. */
  const loadedBy = (argv: readonly string[]): string => {
    const hook = `import { registerHooks } from "node:module"; import { writeSync } from "node:fs";
      registerHooks({ load(url, context, next) { writeSync(2, "loaded " + url + "\\n"); return next(url, context); } });`;
    const run = spawnSync(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(hook)}`, binPath, ...argv], {
      encoding: "utf8",
      env: { PATH: process.env["PATH"] },
    });
    expect(run.status).toBe(0);
    return run.stderr;
  };
  const others = [
    "sandbox/dist/cli/command.js",
    "conformance/dist/command.js",
    "cli/dist/record/command.js",
    "cli/dist/mcp/command.js",
    "cli/dist/fire.js",
    "cli/dist/workspaces.js",
  ];

  it("search --help: the search's module and none of the other commands'", () => {
    const loaded = loadedBy(["search", "--help"]);
    expect(loaded).toContain("cli/dist/search.js");
    for (const module of others) expect(loaded).not.toContain(module);
  });

  it("the top-level --help: every command's", () => {
    const loaded = loadedBy(["--help"]);
    for (const module of ["cli/dist/search.js", ...others]) expect(loaded).toContain(module);
  });
});
