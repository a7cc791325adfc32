import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { constants } from "node:fs";
import { access, mkdir, readFile, rename, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Browser, chromium, type LaunchOptions } from "playwright-core";

/** Where the browser came from: `BOT_CONVERSATION_CHROMIUM`, the machine's own, or the npm registry (`@sparticuz/chromium`). */
export type ChromiumSource = "explicit" | "system" | "npm";

/** The Chromium every browser test and benchmark of the workspace drives. */
export interface ResolvedChromium {
  /** The executable to hand to `chromium.launch`. */
  executablePath: string;
  /** Which of the three places it was found in. */
  source: ChromiumSource;
}

/** What the resolver reads; `process.env` unless a test gives its own. */
export interface ChromiumEnvironment {
  /** An explicit executable: wins over everything else. */
  BOT_CONVERSATION_CHROMIUM?: string | undefined;
  /** `1` hides the machine's own Chromium (to prove the npm path on a machine that has one); `0` or unset does not. */
  BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM?: string | undefined;
  /** Where the npm browser is unpacked; `node_modules/.cache/chromium` of this package unless set. */
  BOT_CONVERSATION_CHROMIUM_CACHE?: string | undefined;
  /** Searched for the system's Chromium by its usual names. */
  PATH?: string | undefined;
}

/**
 * The flags every browser test of the workspace launches with: headless as root in a container
 * (no sandbox, no GPU), and nothing that reaches for the network on its own, which this machine's
 * closed network refuses many times a second.
 */
export const chromiumArgs: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The names a system's Chromium goes by on `PATH`, in order of preference. */
export const systemChromiumNames: readonly string[] = ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome"];

const require = createRequire(import.meta.url);
const packageDirectory = dirname(dirname(fileURLToPath(import.meta.url)));

/** The version of `@sparticuz/chromium` installed (pinned in this package's devDependencies): the cache is kept per version. */
async function npmChromiumVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(dirname(dirname(require.resolve("@sparticuz/chromium"))), "package.json"), "utf8")) as { version: string };
  return manifest.version;
}

/**
 * Finds Chromium: `BOT_CONVERSATION_CHROMIUM` when set (it must be an executable file), else the
 * system's Chromium on `PATH` (unless `BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM=1`), else the one
 * `@sparticuz/chromium` ships inside its npm tarball, unpacked once into the cache.
 */
export async function resolveChromium(environment: ChromiumEnvironment = process.env): Promise<ResolvedChromium> {
  const explicit = environment.BOT_CONVERSATION_CHROMIUM;
  if (explicit !== undefined && explicit !== "") {
    if (!(await isExecutableFile(explicit))) {
      throw new Error(
        `BOT_CONVERSATION_CHROMIUM is ${JSON.stringify(explicit)}, which is not an executable file; expected the path of a Chromium executable, or unset to find one`,
      );
    }
    return { executablePath: explicit, source: "explicit" };
  }
  if (!ignoresSystem(environment.BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM)) {
    const system = await findOnPath(systemChromiumNames, environment.PATH ?? "");
    if (system !== undefined) return { executablePath: system, source: "system" };
  }
  return { executablePath: await unpackNpmChromium(environment.BOT_CONVERSATION_CHROMIUM_CACHE), source: "npm" };
}

/** Launches the resolved Chromium headless with the workspace's flags; `options` adds to them (its `args` after the standard ones). */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const { executablePath, source } = await resolveChromium();
  try {
    return await chromium.launch({ headless: true, ...options, executablePath, args: [...chromiumArgs, ...(options.args ?? [])] });
  } catch (error) {
    throw new Error(`Chromium (${source}, ${executablePath}) did not start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function ignoresSystem(value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "0") return false;
  if (value === "1") return true;
  throw new Error(`BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM is ${JSON.stringify(value)}; expected 1 (ignore the system's Chromium) or 0`);
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function findOnPath(names: readonly string[], path: string): Promise<string | undefined> {
  const directories = path.split(delimiter).filter((directory) => directory !== "");
  for (const name of names) {
    for (const directory of directories) {
      const candidate = join(directory, name);
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** One unpack per process and cache directory, however many suites ask at once. */
const unpacking = new Map<string, Promise<string>>();

/**
 * The npm browser's executable, unpacked on first use. `@sparticuz/chromium`'s `executablePath()`
 * unpacks into the OS temp directory and answers any file already there, even one another process is
 * still writing; so it runs in a child process whose temp directory is a fresh staging folder, and the
 * folder is renamed into place whole. Several processes starting at once (turbo runs packages in
 * parallel, vitest runs files in workers) may each unpack, but only one rename wins and nobody ever
 * sees a partial browser.
 */
async function unpackNpmChromium(cache: string | undefined): Promise<string> {
  const version = await npmChromiumVersion();
  const target = join(cache ?? join(packageDirectory, "node_modules", ".cache", "chromium"), version);
  let pending = unpacking.get(target);
  if (pending === undefined) {
    pending = unpackInto(target);
    unpacking.set(target, pending);
    pending.catch(() => unpacking.delete(target));
  }
  return pending;
}

async function unpackInto(target: string): Promise<string> {
  const executable = join(target, "chromium");
  if (await isExecutableFile(executable)) return executable;
  await mkdir(dirname(target), { recursive: true });
  const staging = `${target}.staging-${process.pid}-${randomUUID()}`;
  await mkdir(staging);
  try {
    const script = `import(${JSON.stringify(require.resolve("@sparticuz/chromium"))}).then((module) => module.default.executablePath()).then((path) => process.stdout.write(path))`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "--eval", script], { env: { ...process.env, TMPDIR: staging } });
    if (stdout !== join(staging, "chromium")) throw new Error(`@sparticuz/chromium unpacked to ${JSON.stringify(stdout)}, not into ${staging}`);
    await rename(staging, target).catch(async (error: NodeJS.ErrnoException) => {
      // Another process renamed its complete copy into place first: use that one.
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  if (!(await isExecutableFile(executable))) throw new Error(`@sparticuz/chromium left no executable at ${executable}`);
  return executable;
}
