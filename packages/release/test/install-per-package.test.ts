/**
 * Each package as its own README installs it, outside the workspace: the tarballs it names and the
 * one command that packs them; the query and sandbox READMEs followed alone, with the peer npm picks
 * (the top of its range), then their examples run; and every peer range of every public package
 * installed at its lowest version, the same examples run on it.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startSandboxServer } from "@bot-conversation/sandbox";
import { readmeTypeScriptBlocks } from "@bot-conversation/test-support/readme-examples";
import { useSandboxServer } from "@bot-conversation/test-support/sandbox";
import semver from "semver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installFromClone, installSection, manifestOf, packageDirectories, readmePeers, tarballsNeeded, tarballsSentence } from "../src/install-from-clone.ts";
import { workspaceRoot } from "../src/major-guard.ts";
import { npmInstallOptions, packPublishedPackages } from "../src/pack.ts";
import { publicPackages } from "../src/packages.ts";

const run = promisify(execFile);
const readmeOf = (name: (typeof publicPackages)[number]) => join(workspaceRoot, packageDirectories[name], "README.md");
/** A README's ```bash blocks. */
const bashBlocks = (text: string) => [...text.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((match) => match[1]!.trimEnd().split("\n"));
const collapse = (text: string) => text.replace(/\s+/g, " ");

let outside: string;
const sandbox = useSandboxServer(startSandboxServer, {});

beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), "bot-conversation-per-package-"));
});
afterAll(async () => {
  await rm(outside, { recursive: true, force: true });
});

/** A new empty app, as `~/my-app` in the READMEs. */
async function newApp(name: string): Promise<string> {
  const app = join(outside, name);
  await mkdir(app);
  await writeFile(join(app, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  return app;
}

/** Runs a README's install lines as written (but `pnpm build`, which turbo ran), with `~/my-app` and the pack folder placed in the test's folder. */
async function followReadme(name: (typeof publicPackages)[number], app: string): Promise<string[]> {
  const block = bashBlocks(await readFile(readmeOf(name), "utf8")).find((lines) => lines.some((line) => line.includes("--filter-prod")))!;
  const destination = join(outside, `packs-${name.split("/")[1]}`);
  const script = block
    .filter((line) => line !== "pnpm build")
    .map((line) =>
      line
        .replaceAll(`/tmp/${name.replace("@bot-conversation/", "bot-conversation-")}`, destination)
        .replace("cd ~/my-app", `cd ${app}`)
        .replace("npm install ", `npm install ${npmInstallOptions.join(" ")} `),
    )
    .join("\n");
  await run("bash", ["-euo", "pipefail", "-c", script], { cwd: workspaceRoot, maxBuffer: 16 * 2 ** 20 });
  return (await readdir(destination)).sort();
}

/** The version of a package installed in an app. */
const installedVersion = async (app: string, name: string) =>
  (JSON.parse(await readFile(join(app, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;

/** Runs an example in an app on this Node (24) and resolves to what it printed. */
async function runExample(app: string, file: string, source: string): Promise<{ stdout: string; stderr: string }> {
  await writeFile(join(app, file), source);
  return run(process.execPath, [file], { cwd: app, env: { ...process.env, BOT_CONVERSATION_TOKEN: sandbox().token } });
}

/** Each peer, with the README example that uses it and what that example prints against the test's sandbox. */
const peerExamples: Record<string, { file: string; source: () => Promise<string>; prints: string }> = {
  "@tanstack/query-core": {
    file: "query-readme.mjs",
    source: async () => (await readmeTypeScriptBlocks(readmeOf("@bot-conversation/query")))[0]!.source.replaceAll("http://127.0.0.1:4011", sandbox().url),
    prints: "2 3\norder-status-changed callback-requested\n",
  },
  msw: {
    file: "sandbox-msw-readme.ts",
    source: async () => (await readmeTypeScriptBlocks(readmeOf("@bot-conversation/sandbox"))).find((block) => block.source.includes('from "msw/node"'))!.source,
    prints: "200 5 1\n",
  },
};

/** Every peer range of every public package, e.g. `["@bot-conversation/sandbox", "msw", "^3.0.0"]`. */
const peerRanges = publicPackages.flatMap((name) =>
  Object.entries(manifestOf(name).peerDependencies ?? {}).map(([peer, range]) => [name, peer, range] as const),
);

describe("each package's README names the tarballs it needs and packs them in one command", () => {
  it.each(publicPackages)("%s", async (name) => {
    const readme = await readFile(readmeOf(name), "utf8");
    expect(collapse(readme)).toContain(collapse(tarballsSentence(name)));
    expect(bashBlocks(readme)).toContainEqual(installFromClone(name, readmePeers[name] ?? []));
    expect(collapse(readme)).toContain(collapse(installSection(name)));
    // pnpm's own selection, `--filter-prod "<name>..."`, is the set the README names.
    const { stdout } = await run("pnpm", ["--filter-prod", `${name}...`, "ls", "--depth", "-1", "--json"], { cwd: workspaceRoot });
    expect((JSON.parse(stdout) as { name: string }[]).map((entry) => entry.name).sort()).toEqual([...tarballsNeeded(name)].sort());
  });
});

describe("the query README, followed alone in an empty app", () => {
  let app: string;
  let tarballs: string[];
  beforeAll(async () => {
    app = await newApp("query-app");
    tarballs = await followReadme("@bot-conversation/query", app);
  });

  it("packs exactly its three tarballs, and npm installs them with the newest @tanstack/query-core its range allows", async () => {
    expect(tarballs.map((file) => file.replace(/-\d+\.\d+\.\d+.*\.tgz$/, ""))).toEqual([
      "bot-conversation-client",
      "bot-conversation-query",
      "bot-conversation-types",
    ]);
    const range = manifestOf("@bot-conversation/query").peerDependencies!["@tanstack/query-core"]!;
    const { stdout } = await run("npm", ["view", `@tanstack/query-core@${range}`, "version", "--json"], { cwd: app });
    const versions = [JSON.parse(stdout) as string | string[]].flat();
    expect(await installedVersion(app, "@tanstack/query-core")).toBe(semver.maxSatisfying(versions, range));
  });

  it("runs its first example against the sandbox", async () => {
    const example = peerExamples["@tanstack/query-core"]!;
    expect(await runExample(app, example.file, await example.source())).toEqual({ stdout: example.prints, stderr: "" });
  });
});

describe("the sandbox README, followed alone in an empty app, with msw", () => {
  let app: string;
  beforeAll(async () => {
    app = await newApp("sandbox-app");
    await followReadme("@bot-conversation/sandbox", app);
  });

  it("installs msw at the top of the peer range, and the README's MSW example answers in Node", async () => {
    expect(semver.satisfies(await installedVersion(app, "msw"), manifestOf("@bot-conversation/sandbox").peerDependencies!["msw"]!)).toBe(true);
    const example = peerExamples["msw"]!;
    expect(await runExample(app, example.file, await example.source())).toEqual({ stdout: example.prints, stderr: "" });
  });
});

describe("every peer range at its lowest version", () => {
  let app: string;
  beforeAll(async () => {
    app = await newApp("lowest-peers-app");
    const tarballs = await packPublishedPackages(join(outside, "packs-all"));
    const lowest = peerRanges.map(([, peer, range]) => `${peer}@${semver.minVersion(range)!.version}`);
    await run("npm", ["install", ...npmInstallOptions, ...tarballs, ...lowest], { cwd: app, maxBuffer: 16 * 2 ** 20 });
  });

  it("every peer of every public package has an example here", () => {
    expect(peerRanges.length).toBeGreaterThan(0);
    expect(peerRanges.map(([, peer]) => peer).sort()).toEqual(Object.keys(peerExamples).sort());
  });

  it.each(peerRanges)("%s: %s %s, at its lowest, runs the README example", async (_name, peer, range) => {
    expect(await installedVersion(app, peer)).toBe(semver.minVersion(range)!.version);
    const example = peerExamples[peer]!;
    expect(await runExample(app, example.file, await example.source())).toEqual({ stdout: example.prints, stderr: "" });
  });
});
