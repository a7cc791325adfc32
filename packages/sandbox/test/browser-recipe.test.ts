/**
 * The README's page recipe ("In a page, in development only"), as a small Vite app outside the
 * workspace's packages: its `index.html` and `src/main.ts` are the README's blocks as written, its
 * `node_modules` links the installed packages as npm would place them, and `public/` holds a file of
 * the app's own (`favicon.svg`, which the page links). Built for production, it carries no sandbox or
 * MSW code and keeps `public/`; built for development, their chunks stay within the size the README
 * states; served by `vite` in Chromium, the sandbox answers in the page.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { launchChromium } from "@bot-conversation/test-support/browser";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import type { Browser } from "playwright-core";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSandbox } from "../src/index.ts";

vi.setConfig({ testTimeout: heavyTestTimeoutMs, hookTimeout: heavyTestTimeoutMs });

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const readme = await readFile(join(packageDir, "README.md"), "utf8");
const recipe = readme.slice(readme.indexOf("### In a page, in development only"));
/** The recipe's blocks, as written: `[language, source]`. */
const blocks = [...recipe.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((match) => [match[1]!, match[2]!] as const);
/** The figure the README states for the development chunks. */
const statedKiB = Number(/at most (\d+) KiB gzipped/.exec(recipe)?.[1]);

/** Strings only the sandbox's or MSW's code holds (each is checked to be in the development build). */
const markers = ["/_sandbox/", "sandbox-token", "mockServiceWorker", "[MSW]"];

let app: string;
/** The app's own file in `public/`. */
const favicon = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#1a5fd0"/></svg>\n';
const require = createRequire(import.meta.url);

/** Every file a build wrote, by path, with its bytes. */
async function builtFiles(outDir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(join(entry.parentPath, entry.name).slice(outDir.length + 1), await readFile(join(entry.parentPath, entry.name)));
  }
  return files;
}

/** `vite build` in the app, as its README command runs in a shell: NODE_ENV unset (vitest's `test` left out), or `development`. */
async function buildRecipe(nodeEnvironment: "production" | "development"): Promise<Map<string, Buffer>> {
  const outDir = join(app, `dist-${nodeEnvironment}`);
  const { NODE_ENV: _vitest, ...environment } = process.env;
  const vite = join(dirname(fileURLToPath(import.meta.resolve("vite/package.json"))), "bin", "vite.js");
  await run(process.execPath, [vite, "build", "--outDir", outDir, "--logLevel", "warn"], {
    cwd: app,
    env: nodeEnvironment === "development" ? { ...environment, NODE_ENV: "development" } : environment,
  });
  return builtFiles(outDir);
}
/** The gzipped weight of a build's scripts, in KiB. */
const scriptsKiB = (files: Map<string, Buffer>) =>
  [...files].filter(([file]) => file.endsWith(".js")).reduce((sum, [, bytes]) => sum + gzipSync(bytes).length, 0) / 1024;

beforeAll(async () => {
  app = await mkdtemp(join(tmpdir(), "sandbox-recipe-"));
  await mkdir(join(app, "src"));
  await mkdir(join(app, "public"));
  await mkdir(join(app, "node_modules", "@bot-conversation"), { recursive: true });
  // The page, then each TypeScript file under the name its first line gives (`// src/main.ts`).
  await writeFile(join(app, "index.html"), blocks.find(([language]) => language === "html")![1]);
  const files = blocks.filter(([language]) => language === "typescript").map(([, source]) => [/^\/\/ (\S+)\n/.exec(source)![1]!, source] as const);
  expect(files.map(([file]) => file)).toEqual(["vite.config.ts", "src/main.ts"]);
  for (const [file, source] of files) await writeFile(join(app, file), source);
  await writeFile(join(app, ".env.production"), "VITE_BOT_CONVERSATION_BASE_URL=https://bots.example.com\n");
  // A file of the app's own in Vite's public folder: every build must copy it.
  await writeFile(join(app, "public", "favicon.svg"), favicon);
  // The app's dependencies, where npm would place them: this package (built), the client, msw, vite and Node's types.
  await symlink(packageDir, join(app, "node_modules", "@bot-conversation", "sandbox"));
  await symlink(dirname(fileURLToPath(import.meta.resolve("@bot-conversation/client/package.json"))), join(app, "node_modules", "@bot-conversation", "client"));
  await symlink(dirname(fileURLToPath(import.meta.resolve("msw/package.json"))), join(app, "node_modules", "msw"));
  await symlink(dirname(fileURLToPath(import.meta.resolve("vite/package.json"))), join(app, "node_modules", "vite"));
  await mkdir(join(app, "node_modules", "@types"));
  await symlink(dirname(require.resolve("@types/node/package.json")), join(app, "node_modules", "@types", "node"));
});
afterAll(() => (process.env["KEEP_RECIPE_APP"] ? undefined : rm(app, { recursive: true, force: true })));

describe("the README's page recipe, built by Vite", () => {
  let production: Map<string, Buffer>;
  let development: Map<string, Buffer>;
  beforeAll(async () => {
    production = await buildRecipe("production");
    development = await buildRecipe("development");
  });

  it("a development build holds the sandbox and MSW, in chunks of their own", () => {
    const scripts = [...development].filter(([file]) => file.endsWith(".js"));
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    const all = scripts.map(([, bytes]) => bytes.toString()).join("\n");
    for (const marker of markers) expect(all, marker).toContain(marker);
  });

  it("a production build carries no sandbox or MSW code (not even MSW's worker script), and calls the service's address", () => {
    const scripts = [...production].filter(([file]) => file.endsWith(".js"));
    expect(scripts).toHaveLength(1);
    expect(development.has("mockServiceWorker.js")).toBe(true);
    const [, bytes] = scripts[0]!;
    for (const marker of markers) expect(bytes.toString(), marker).not.toContain(marker);
    expect(bytes.toString()).toContain("https://bots.example.com");
  });

  it("both builds keep the app's public/ folder: the favicon the page links is there, byte for byte", () => {
    for (const build of [production, development]) {
      expect(build.get("index.html")?.toString()).toContain('href="/favicon.svg"');
      expect(build.get("favicon.svg")?.toString()).toBe(favicon);
    }
    expect(production.has("mockServiceWorker.js")).toBe(false);
  });

  it("the development build's scripts weigh at most what the README states over the production build's, gzipped", () => {
    const gzippedKiB = scriptsKiB(development) - scriptsKiB(production);
    console.info(`development build: ${gzippedKiB.toFixed(1)} KiB gzipped over the production build`);
    expect(statedKiB).toBeGreaterThan(0);
    expect(gzippedKiB).toBeLessThanOrEqual(statedKiB);
    // The stated figure is a bound, not a guess: within 10% of what the build weighs.
    expect(gzippedKiB).toBeGreaterThan(statedKiB * 0.9);
  });
});

describe("the README's page recipe, as TypeScript", () => {
  it("type-checks with tsc --strict and Vite's client types", async () => {
    const tsc = join(dirname(fileURLToPath(import.meta.resolve("typescript/package.json"))), "bin", "tsc");
    const checked = await run(
      process.execPath,
      [
        tsc,
        "--strict",
        "--noEmit",
        "--module",
        "esnext",
        "--moduleResolution",
        "bundler",
        "--target",
        "es2022",
        "--lib",
        "es2022,dom",
        "--types",
        "vite/client",
        "--skipLibCheck",
        "src/main.ts",
        "vite.config.ts",
      ],
      { cwd: app },
    )
      .then(({ stdout }) => stdout)
      .catch((error: { stdout: string }) => error.stdout);
    expect(checked).toBe("");
  });
});

describe("the README's page recipe under vite, in Chromium", () => {
  let server: ViteDevServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await createServer({ root: app, logLevel: "silent", server: { host: "127.0.0.1", port: 0, strictPort: false } });
    await server.listen();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("starts the worker before the first request, and renders the sandbox's first five active conversations", async () => {
    const expected = await createSandbox({ state: "default" });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    try {
      await page.goto(server.resolvedUrls!.local[0]!);
      const items = page.locator("#conversations li");
      await items.nth(4).waitFor();
      const response = await expected.fetch(
        new Request("http://sandbox.invalid/api/v2/channels/conversations?status=Active&pageSize=5", { headers: { "X-Token": "sandbox-token" } }),
      );
      const { items: conversations } = (await response.json()) as { items: { id: string; status: string }[] };
      expect(await items.allTextContents()).toEqual(conversations.map((conversation) => `${conversation.id} ${conversation.status}`));
      expect(errors).toEqual([]);
      // The dev server answers the app's public/ file beside the worker.
      expect(await (await fetch(new URL("/favicon.svg", server.resolvedUrls!.local[0]!))).text()).toBe(favicon);
    } finally {
      await page.close();
      await expected.close();
    }
  });
});
