/**
 * Every public package, packed as the root README says and installed with npm into an empty project
 * outside the workspace, then used there as a team would: the bins through npx on Node 22 and on
 * Node 24 (both from the npm registry's `node` package), the client's, the description's and the root README's examples,
 * the query package's first example over the peer dependency npm installed,
 * and `tsc --strict` over a program using types and client under `nodenext` and `bundler` resolution.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { defaultMockOptions, type RunningMock, startMockOnFreePort } from "@bot-conversation/mock";
import { node22 } from "@bot-conversation/node-22";
import { readmeTypeScriptBlocks } from "@bot-conversation/test-support/readme-examples";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { workspaceRoot } from "../src/major-guard.ts";
import { npmInstallOptions, packCommand, packPublishedPackages } from "../src/pack.ts";
import { publicPackages } from "../src/packages.ts";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** The compiler and Node types a user project would add, at the versions this workspace uses. */
const userDevDependencies = ["typescript", "@types/node"].map((name) => `${name}@${(require(`${name}/package.json`) as { version: string }).version}`);
/** Node 22 and Node 24, each the binary of the npm registry's `node` package (24 runs this test). */
const nodes = { 22: node22, 24: process.execPath } as const;

let outside: string;
let app: string;
let mock: RunningMock;

/** The README examples, each with the default mock address replaced by the test mock's. */
async function examples(): Promise<{ file: string; readme: string; line: number }[]> {
  const readmes = {
    root: join(workspaceRoot, "README.md"),
    client: join(workspaceRoot, "packages", "client", "README.md"),
    openapi: join(workspaceRoot, "openapi", "README.md"),
  };
  const found = [];
  for (const [readme, path] of Object.entries(readmes)) {
    for (const [index, block] of (await readmeTypeScriptBlocks(path)).entries()) {
      const file = `${readme}-readme-${index}.ts`;
      await writeFile(join(app, file), block.source.replaceAll("http://127.0.0.1:4010", mock.url));
      found.push({ file, readme, line: block.line });
    }
  }
  return found;
}

/** The environment of a command run in the user's project on one Node: that Node first on the PATH, so npx and the bins' `#!/usr/bin/env node` use it. */
const onNode = (major: keyof typeof nodes): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${dirname(nodes[major])}:${process.env["PATH"] ?? ""}`,
  npm_config_update_notifier: "false",
});

/** Runs a command in the user's project and resolves to its exit code and output, whatever the code. */
async function inApp(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(file, args, { cwd: app, env, maxBuffer: 16 * 1024 * 1024 })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }));
}

/** `npx bot-conversation-sandbox --port 0` on one Node, resolved once it prints its ready line. */
async function startSandbox(major: keyof typeof nodes): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn("npx", ["--no-install", "bot-conversation-sandbox", "--port", "0"], {
    cwd: app,
    env: onNode(major),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    // npx runs the bin as its child: the whole process group is stopped.
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  };
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Sandbox ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (ready) resolve(ready[1]!);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("exit", (code) => reject(new Error(`npx bot-conversation-sandbox exited with ${code}:\n${output}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, child, stop };
}

/** Starts an MCP server as a host does (its command from another folder, with the configuration's env) and lists its tools. */
async function mcpToolNames(command: string, args: string[], env: Record<string, string>): Promise<string[]> {
  const server = spawn(command, args, { cwd: outside, env: { ...onNode(24), ...env }, stdio: ["pipe", "pipe", "pipe"], detached: true });
  try {
    const lines = createInterface({ input: server.stdout });
    const send = (message: object) => server.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "install-outside", version: "1.0.0" } },
    });
    const answers = lines[Symbol.asyncIterator]();
    const initialized = JSON.parse((await answers.next()).value as string) as { id: number; result: { serverInfo: { name: string } } };
    expect(initialized.id).toBe(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const listed = JSON.parse((await answers.next()).value as string) as { id: number; result: { tools: { name: string }[] } };
    expect(listed.id).toBe(2);
    return listed.result.tools.map((tool) => tool.name);
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = once(server, "exit");
      // npx starts the bin as its child: the whole group is stopped.
      process.kill(-server.pid!, "SIGTERM");
      await exited;
    }
  }
}

beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), "bot-conversation-outside-"));
  app = join(outside, "app");
  await mkdir(app);
  await writeFile(join(app, "package.json"), JSON.stringify({ name: "outside-app", private: true, type: "module" }));
  await writeFile(
    join(app, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { module: "nodenext", target: "es2022", noEmit: true, types: ["node"] }, include: ["*.ts"] }),
  );
  const tarballs = await packPublishedPackages(join(outside, "packs"));
  await run("npm", ["install", ...npmInstallOptions, ...tarballs, ...userDevDependencies], { cwd: app, env: onNode(24) });
  mock = await startMockOnFreePort(defaultMockOptions);
});

afterAll(async () => {
  await mock?.stop();
  await rm(outside, { recursive: true, force: true });
});

describe("every public package, installed with npm into a project outside the workspace", () => {
  it("packs every public package, as the root README says, with every workspace and catalog version rewritten", async () => {
    expect(await readFile(join(workspaceRoot, "README.md"), "utf8")).toContain(packCommand("/tmp/bot-conversation").join(" "));
    for (const name of publicPackages) {
      const installed = JSON.parse(await readFile(join(app, "node_modules", name, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
      expect(
        Object.values(installed.dependencies ?? {}).filter((version) => /^(workspace|catalog):/.test(version)),
        name,
      ).toEqual([]);
    }
  });

  it.each(["nodenext", "bundler"] as const)("a program using types and client compiles with tsc --strict under %s resolution", async (resolution) => {
    const project = join(app, resolution);
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, "program.ts"),
      [
        'import { createBotConversationClient, NotFoundError } from "@bot-conversation/client";',
        'import type { ConversationSummary, ExternalEventTrigger } from "@bot-conversation/types";',
        'const client = createBotConversationClient({ baseUrl: "http://127.0.0.1:4011", token: "sandbox-token" });',
        'const first: ConversationSummary | undefined = (await client.searchConversations({ status: "Active" })).items[0];',
        'const triggers: ExternalEventTrigger[] = await client.listExternalEventTriggers(first?.id ?? "bot");',
        "export const found = [first?.status, triggers.length];",
        "export const isMissing = (error: unknown): boolean => error instanceof NotFoundError && error.status === 404;",
        "",
      ].join("\n"),
    );
    const module = resolution === "nodenext" ? "nodenext" : "esnext";
    const compiled = await inApp(
      join(app, "node_modules", ".bin", "tsc"),
      ["--strict", "--noEmit", "--module", module, "--moduleResolution", resolution, "--target", "es2022", "--types", "node", join(project, "program.ts")],
      onNode(24),
    );
    expect(compiled.stdout).toBe("");
    expect(compiled.code).toBe(0);
  });

  it("compiles every example of the client README, the description's README and the root README with tsc --strict", async () => {
    const found = await examples();
    expect(found.filter(({ readme }) => readme === "root").length).toBeGreaterThanOrEqual(1);
    expect(found.filter(({ readme }) => readme === "client").length).toBeGreaterThanOrEqual(2);
    // The description's runtime (its reader and its Ajv), as installed from its tarball.
    expect(found.filter(({ readme }) => readme === "openapi").length).toBe(1);
    const compiled = await inApp(join(app, "node_modules", ".bin", "tsc"), ["-p", ".", "--strict"], onNode(24));
    expect(compiled.stdout).toBe("");
  });

  it("runs every example, as written, against the mock that pnpm start serves", async () => {
    for (const example of await examples()) {
      const result = await inApp(process.execPath, [example.file], { ...onNode(24), BOT_CONVERSATION_TOKEN: "mock-token" });
      expect({ example: `${example.readme} README line ${example.line}`, stderr: result.stderr }).toEqual({
        example: `${example.readme} README line ${example.line}`,
        stderr: "",
      });
    }
  });

  it("the CLI README's MCP host configurations: for today the installed bin, which lists its tools; on Node 22 through npx -p node@22, which lists them too; once published the package", async () => {
    const readme = await readFile(join(workspaceRoot, "packages", "cli", "README.md"), "utf8");
    type HostConfig = { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> };
    const configs = [...readme.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((match) => Object.values((JSON.parse(match[1]!) as HostConfig).mcpServers)[0]!);
    expect(configs.map(({ command, args }) => [command, ...args].slice(0, 5))).toEqual([
      ["/home/you/my-app/node_modules/.bin/bot-conversation", "mcp", "--base-url", "http://127.0.0.1:4011"],
      ["npx", "-y", "@bot-conversation/cli", "mcp", "--base-url"],
      ["npx", "-y", "-p", "node@22", "/home/you/my-app/node_modules/.bin/bot-conversation"],
    ]);
    const [today, , onNode22] = configs as [HostConfig["mcpServers"][string], unknown, HostConfig["mcpServers"][string]];
    const inThisApp = (args: string[]) => args.map((arg) => arg.replace("/home/you/my-app", app));
    expect(await mcpToolNames(today.command.replace("/home/you/my-app", app), today.args, today.env)).toEqual(
      expect.arrayContaining(["search_conversations", "list_external_event_triggers"]),
    );
    // The npx form puts Node 22 first on the PATH of what it starts (here the host's node is Node 24).
    const npxOptions = onNode22.args.slice(0, onNode22.args.indexOf("/home/you/my-app/node_modules/.bin/bot-conversation"));
    const version = await inApp(onNode22.command, [...npxOptions, "node", "-p", "process.versions.node"], onNode(24));
    expect(version.stdout.trim()).toMatch(/^22\./);
    expect(await mcpToolNames(onNode22.command, inThisApp(onNode22.args), onNode22.env)).toEqual(
      expect.arrayContaining(["search_conversations", "list_external_event_triggers"]),
    );
  });

  it("the description README's mock outside the repo: Prism from the npm registry serves the installed tarball's bundle and answers the named example asked for", async () => {
    const readme = await readFile(join(workspaceRoot, "openapi", "README.md"), "utf8");
    const section = /^## A mock outside this repository\n([\s\S]*?)^## /m.exec(readme)![1]!;
    const [prismLine, curlLine] = /^```sh\n([\s\S]*?)^```$/m.exec(section)![1]!.trim().split("\n") as [string, string];
    // Any free port instead of 4010 (Prism names the one it bound); otherwise the README's lines as written.
    const prism = spawn("bash", ["-c", `exec ${prismLine.replace("--port 4010", "--port 0")}`], {
      cwd: app,
      env: onNode(24),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    try {
      const port = await new Promise<string>((resolve, reject) => {
        let output = "";
        const collect = (chunk: Buffer) => {
          output += chunk.toString();
          const listening = /is listening on \S*:(\d+)/.exec(output);
          if (listening) resolve(listening[1]!);
        };
        prism.stdout.on("data", collect);
        prism.stderr.on("data", collect);
        prism.once("exit", (code) => reject(new Error(`${prismLine} exited with ${code}:\n${output}`)));
      });
      const answered = await run("bash", ["-c", curlLine.replaceAll("127.0.0.1:4010", `127.0.0.1:${port}`)], { cwd: app });
      const lastPage = parse(await readFile(join(workspaceRoot, "openapi", "components", "examples", "ConversationPageLast.yaml"), "utf8")) as {
        value: unknown;
      };
      expect(JSON.parse(answered.stdout)).toEqual(lastPage.value);
      expect(lastPage.value).toMatchObject({ hasMore: false });
    } finally {
      if (prism.exitCode === null && prism.signalCode === null) {
        const exited = once(prism, "exit");
        // npx runs Prism as its child: the whole group is stopped.
        process.kill(-prism.pid!, "SIGTERM");
        await exited;
      }
    }
  });

  describe.each([22, 24] as const)("on Node %i", (major) => {
    it("runs on that Node", async () => {
      expect((await inApp("node", ["--version"], onNode(major))).stdout).toMatch(new RegExp(`^v${major}\\.`));
    });

    it("npx bot-conversation-sandbox serves; the client's example walks it; npx bot-conversation check passes against it", async () => {
      const sandbox = await startSandbox(major);
      try {
        // The root README's client example, as written but for the address and the token.
        const [example] = await readmeTypeScriptBlocks(join(workspaceRoot, "README.md"));
        await writeFile(
          join(app, `readme-example-${major}.mjs`),
          example!.source.replaceAll("http://127.0.0.1:4010", sandbox.url).replaceAll("mock-token", "sandbox-token"),
        );
        const walked = await inApp("node", [`readme-example-${major}.mjs`], onNode(major));
        expect({ code: walked.code, stderr: walked.stderr }).toEqual({ code: 0, stderr: "" });
        expect(walked.stdout.trim().split("\n")).toHaveLength(3);

        const checked = await inApp(
          "npx",
          ["--no-install", "bot-conversation", "check", "--base-url", sandbox.url, "--token", "sandbox-token", "--max-requests", "300", "--rate", "0"],
          onNode(major),
        );
        expect(checked.stdout).toContain("Result: every check that ran held");
        expect(checked.code).toBe(0);

        // The CLI's own commands from the tarball: an NDJSON export piped, and the MCP server's help.
        const searched = await inApp("npx", ["--no-install", "bot-conversation", "search", "--base-url", sandbox.url, "--limit", "3"], {
          ...onNode(major),
          BOT_CONVERSATION_TOKEN: "sandbox-token",
        });
        // npx's own notes (npm warn ...) aside, nothing on stderr.
        expect({ code: searched.code, stderr: searched.stderr.split("\n").filter((line) => line && !line.startsWith("npm warn")) }).toEqual({
          code: 0,
          stderr: [],
        });
        expect(
          searched.stdout
            .trim()
            .split("\n")
            .map((line) => (JSON.parse(line) as { id: string }).id),
        ).toHaveLength(3);

        // The query package's first README example (plain JavaScript), on @tanstack/query-core as npm installed its peer dependency.
        const [queryExample] = await readmeTypeScriptBlocks(join(workspaceRoot, "packages", "query", "README.md"));
        await writeFile(join(app, `query-readme-example-${major}.mjs`), queryExample!.source.replaceAll("http://127.0.0.1:4011", sandbox.url));
        const queried = await inApp("node", [`query-readme-example-${major}.mjs`], { ...onNode(major), BOT_CONVERSATION_TOKEN: "sandbox-token" });
        expect({ code: queried.code, stderr: queried.stderr, stdout: queried.stdout }).toEqual({
          code: 0,
          stderr: "",
          stdout: "2 3\norder-status-changed callback-requested\n",
        });
      } finally {
        await sandbox.stop();
      }
    });

    it("every bin answers --help with an example", async () => {
      for (const args of [["bot-conversation"], ["bot-conversation-sandbox"], ["bot-conversation", "mcp"]]) {
        const bin = args.join(" ");
        const help = await inApp("npx", ["--no-install", ...args, "--help"], onNode(major));
        expect({ bin, code: help.code }).toEqual({ bin, code: 0 });
        expect(help.stdout).toContain("Example");
      }
    });
  });
});
