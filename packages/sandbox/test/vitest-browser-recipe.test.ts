/**
 * The README's Vitest browser-mode recipe ("In Vitest's browser mode"), run as a user runs it: its
 * `recording/fixture.json`, `recording/exchanges.ndjson`, `vitest.config.ts` and
 * `src/conversations.browser.test.ts` written as
 * the README has them into a folder inside this package (so the workspace's packages resolve as an
 * installed app's would), then a nested `vitest run --browser` in headless Chromium: the one
 * `@bot-conversation/test-support/browser` resolves (never a download), handed to the recipe through
 * `BOT_CONVERSATION_CHROMIUM`. Vitest's JSON report says which of the recipe's tests passed.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { resolveChromium } from "@bot-conversation/test-support/browser";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs, hookTimeout: heavyTestTimeoutMs });

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const readme = await readFile(join(packageDir, "README.md"), "utf8");
const start = readme.indexOf("### In Vitest's browser mode");
const recipe = readme.slice(start, readme.indexOf("\n### ", start + 1));
/** The recipe's blocks, as written: `[language, source]`. */
const blocks = [...recipe.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((match) => [match[1]!, match[2]!] as const);

/** One test of Vitest's JSON report (Jest's shape). */
interface ReportedTest {
  title: string;
  status: string;
  failureMessages: string[];
}
/** Vitest's JSON report, the parts read here. */
interface Report {
  success: boolean;
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; assertionResults: ReportedTest[] }[];
}

let app: string;

beforeAll(async () => {
  // Inside the package: `@bot-conversation/sandbox` resolves to this package (built), the rest from its node_modules.
  const results = join(packageDir, "test-results");
  await mkdir(results, { recursive: true });
  app = await mkdtemp(join(results, "vitest-browser-recipe-"));
  const [fixture, journal, ...typescript] = blocks;
  expect([fixture?.[0], journal?.[0]]).toEqual(["json", "ndjson"]);
  await mkdir(join(app, "recording"));
  await writeFile(join(app, "recording", "fixture.json"), fixture![1]);
  await writeFile(join(app, "recording", "exchanges.ndjson"), journal![1]);
  // Each TypeScript file under the name its first line gives (`// vitest.config.ts`).
  const files = typescript.map(([language, source]) => [language, /^\/\/ (\S+)\n/.exec(source)?.[1], source] as const);
  expect(files.map(([language, file]) => `${language} ${file}`)).toEqual(["typescript vitest.config.ts", "typescript src/conversations.browser.test.ts"]);
  for (const [, file, source] of files) {
    await mkdir(dirname(join(app, file!)), { recursive: true });
    await writeFile(join(app, file!), source);
  }
});
afterAll(() => (process.env["KEEP_RECIPE_APP"] ? undefined : rm(app, { recursive: true, force: true })));

/** `vitest run --browser` in the recipe's folder, on the workspace's Chromium; its JSON report. */
async function runRecipe(): Promise<Report> {
  const { executablePath } = await resolveChromium();
  // The outer run's own variables (its worker ids, its pool) are not the nested run's.
  const environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST") && name !== "NODE_ENV"));
  const vitest = join(dirname(fileURLToPath(import.meta.resolve("vitest/package.json"))), "vitest.mjs");
  const report = join(app, "report.json");
  // Its server on loopback, on a port the system picks (other runs of the suite may be on the default one).
  const flags = ["--browser", "--api.host=127.0.0.1", "--api.port=0", "--reporter=json", `--outputFile=${report}`];
  const stderr = await run(process.execPath, [vitest, "run", ...flags], {
    cwd: app,
    env: { ...environment, BOT_CONVERSATION_CHROMIUM: executablePath, CI: "true" },
  }).then(
    ({ stderr }) => stderr,
    // A failing nested test exits 1 with its report written: the report tells.
    (error: { stderr?: string }) => error.stderr ?? "",
  );
  const written = await readFile(report, "utf8").catch(() => {
    throw new Error(`vitest run --browser wrote no report at ${report}; its last words:\n${stderr.slice(-4000)}`);
  });
  return JSON.parse(written) as Report;
}

describe("the README's Vitest browser-mode recipe, run by vitest --browser in Chromium", () => {
  it("passes its three tests: the fixture imported from JSON answers the search and the fires, and the journal its recorded request, through MSW's worker", async () => {
    const report = await runRecipe();
    const tests = report.testResults.flatMap((file) => file.assertionResults);
    expect(tests.map((test) => [test.title, test.status, test.failureMessages])).toEqual([
      ["the recording's active conversations", "passed", []],
      ["a fire the recorded trigger accepts is received; one it does not know is refused", "passed", []],
      ["a request the recording holds gets its recorded answer", "passed", []],
    ]);
    expect(report.success).toBe(true);
    expect(report.testResults.map((file) => file.name)).toEqual([join(app, "src", "conversations.browser.test.ts")]);
  });
});

describe("the README's Vitest browser-mode recipe, as TypeScript", () => {
  it("type-checks with the workspace's strictest settings: the fixture imported from JSON needs no cast", async () => {
    const tsc = join(dirname(fileURLToPath(import.meta.resolve("typescript/package.json"))), "bin", "tsc");
    const flags = ["--strict", "--noUncheckedIndexedAccess", "--exactOptionalPropertyTypes", "--noEmit", "--skipLibCheck", "--resolveJsonModule"];
    const target = ["--module", "esnext", "--moduleResolution", "bundler", "--target", "es2022", "--lib", "es2022,dom"];
    const checked = await run(process.execPath, [tsc, ...flags, ...target, "vitest.config.ts", "src/conversations.browser.test.ts"], { cwd: app })
      .then(({ stdout }) => stdout)
      .catch((error: { stdout: string }) => error.stdout);
    expect(checked).toBe("");
  });
});
