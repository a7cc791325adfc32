import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultMockOptions, startMockOnFreePort, type RunningMock } from "@bot-conversation/mock";
import { readmeTypeScriptBlocks } from "@bot-conversation/test-support/readme-examples";
import { workspaceRoot } from "../src/major-guard.ts";
import { packCommand, packPublishedPackages } from "../src/pack.ts";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** The compiler and Node types a user project would add, at the versions this workspace uses. */
const userDevDependencies = ["typescript", "@types/node"].map((name) => `${name}@${(require(`${name}/package.json`) as { version: string }).version}`);

let outside: string;
let app: string;
let mock: RunningMock;

/** The README examples, each with the default mock address replaced by the test mock's. */
async function examples(): Promise<{ file: string; readme: string; line: number }[]> {
  const readmes = { root: join(workspaceRoot, "README.md"), client: join(workspaceRoot, "packages", "client", "README.md") };
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
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs, ...userDevDependencies], { cwd: app });
  mock = await startMockOnFreePort(defaultMockOptions);
});

afterAll(async () => {
  await mock?.stop();
  await rm(outside, { recursive: true, force: true });
});

describe("the packages installed with npm into a project outside the workspace", () => {
  it("packs types and client, as the root README says, with every workspace version rewritten", async () => {
    expect(await readFile(join(workspaceRoot, "README.md"), "utf8")).toContain(packCommand("/tmp/bot-conversation").join(" "));
    const client = JSON.parse(await readFile(join(app, "node_modules", "@bot-conversation", "client", "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const types = JSON.parse(await readFile(join(app, "node_modules", "@bot-conversation", "types", "package.json"), "utf8")) as { version: string };
    expect(client.dependencies["@bot-conversation/types"]).toBe(types.version);
    expect(Object.values(client.dependencies).filter((version) => /^(workspace|catalog):/.test(version))).toEqual([]);
  });

  it("compiles every example of the client README and the root README with tsc --strict", async () => {
    const found = await examples();
    expect(found.filter(({ readme }) => readme === "root").length).toBeGreaterThanOrEqual(1);
    expect(found.filter(({ readme }) => readme === "client").length).toBeGreaterThanOrEqual(2);
    const compiled = await run(join(app, "node_modules", ".bin", "tsc"), ["-p", ".", "--strict"], { cwd: app }).catch((error: { stdout: string }) => error);
    expect(compiled.stdout).toBe("");
  });

  it("runs every example, as written, against the mock that pnpm start serves", async () => {
    for (const example of await examples()) {
      const result = await run(process.execPath, [example.file], { cwd: app, env: { ...process.env, BOT_CONVERSATION_TOKEN: "mock-token" } }).catch(
        (error: { code: number; stderr: string }) => ({ stdout: "", stderr: `exit ${error.code}: ${error.stderr}` }),
      );
      expect({ example: `${example.readme} README line ${example.line}`, stderr: result.stderr }).toEqual({
        example: `${example.readme} README line ${example.line}`,
        stderr: "",
      });
    }
  });

  it("pages through every conversation of the root README's example, each once", async () => {
    const [first] = (await examples()).filter(({ readme }) => readme === "root");
    const { stdout } = await run(process.execPath, [first!.file], { cwd: app });
    const ids = stdout.trim().split("\n").map((line) => line.split(" ")[0]);
    expect(ids.length).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
