import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { rules } from "@bot-conversation/openapi";
import { createSandbox, type Sandbox } from "@bot-conversation/sandbox";
import { checkReadmeExamples } from "@bot-conversation/test-support/readme-examples";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkNames, probeFamilies } from "../src/index.ts";
import { catalogTables } from "../src/report/rules.ts";
import { type FaultyProxy, startFaultyProxy } from "./support/faulty-proxy.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);
const readme = (): Promise<string> => readFile(new URL("../README.md", import.meta.url), "utf8");

describe("README", () => {
  let sandbox: Sandbox;
  let server: FaultyProxy;
  beforeAll(async () => {
    // The sandbox as `pnpm --filter @bot-conversation/sandbox start` serves it: generated data, over HTTP.
    sandbox = await createSandbox();
    server = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox.fetch });
  });
  afterAll(async () => {
    await server.close();
    await sandbox.close();
  });

  it("the table of checks names the catalog's checks, each once, in report order (the catalog is the one list)", async () => {
    const section = (await readme()).split("## The checks")[1]!.split("\n\n")[1]!;
    const named = section
      .split("\n")
      .filter((line) => /^\| `/.test(line))
      .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]));
    expect(named).toEqual(checkNames);
  });

  it("the rule → family tables are the catalog's (its families, and openapi/rules.yaml's rules), generated, every rule and family once", async () => {
    const marker = "<!-- Generated from the catalog (src/checks/) and openapi/rules.yaml: do not edit the tables. -->\n";
    const text = await readme();
    const tables = text.slice(text.indexOf(marker) + marker.length, text.indexOf("\n\n## The checks"));
    expect(text).toContain(marker);
    expect(tables).toBe(catalogTables(probeFamilies, rules));
  });

  it("every ts example type-checks", async () => {
    const examples = await checkReadmeExamples(packageDir);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(example.diagnostics, `README line ${example.line}`).toEqual([]);
  });

  it("the in-process example runs and prints what its comment says", async () => {
    const source = /^```ts\n([\s\S]*?)^```$/m.exec(await readme())![1]!;
    const file = fileURLToPath(new URL("../readme-example-run.ts", import.meta.url));
    await writeFile(file, source);
    try {
      const { stdout } = await run(process.execPath, [file], { cwd: packageDir });
      expect(stdout).toContain("Result: every check that ran held");
      expect(stdout.trim().split("\n").at(-1)).toBe("true 1");
    } finally {
      await rm(file, { force: true });
    }
  });

  it("every sh block runs as written (bash -euo pipefail, bot-conversation check on PATH) against the sandbox in place of 127.0.0.1:4011", async () => {
    const blocks = [...(await readme()).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const bin = await mkdtemp(join(tmpdir(), "conformance-readme-"));
    try {
      // `bot-conversation check` as the CLI runs it: this package's command, its source run by Node.
      await writeFile(
        join(bin, "check.ts"),
        `import { runCheckCommand } from ${JSON.stringify(join(packageDir, "src/index.ts"))};\nprocess.exitCode = await runCheckCommand(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });\n`,
      );
      await writeFile(join(bin, "bot-conversation"), `#!/bin/sh\nexec "${process.execPath}" "${join(bin, "check.ts")}" "$@"\n`);
      await chmod(join(bin, "bot-conversation"), 0o755);
      const script = ["set -euo pipefail", ...blocks].join("\n").replaceAll("http://127.0.0.1:4011", server.url);
      const { stdout } = await run("bash", ["-c", script], { cwd: bin, env: { PATH: `${bin}:${process.env["PATH"]}`, HOME: bin }, maxBuffer: 64 * 2 ** 20 });
      expect(stdout).toContain("Result: every check that ran held");
      expect(stdout).toContain("dry run: nothing is sent");
      const baseline = JSON.parse(await readFile(join(bin, "baseline.json"), "utf8")) as { failures: unknown[] };
      expect(baseline.failures).toEqual([]);
      expect(await readFile(join(bin, "report.html"), "utf8")).toContain("<!doctype html>");
      expect(await readFile(join(bin, "report.xml"), "utf8")).toContain('classname="findings"');
      for (const file of ["report.html", "report.xml", "report.json", "baseline.json"])
        expect(await readFile(join(bin, file), "utf8")).not.toContain("sandbox-token");
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });
});
