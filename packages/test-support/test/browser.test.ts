/**
 * The browser resolver, branch by branch, each proven by launching what it found: an explicit path,
 * the system's Chromium on PATH (a folder made here, so the test needs no browser on the machine),
 * and the npm browser, unpacked from `@sparticuz/chromium` — also by several processes at once.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumArgs, launchChromium, resolveChromium } from "../src/browser.ts";

const scratch = await mkdtemp(join(tmpdir(), "browser-resolver-"));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Launches the executable and reads back what a script wrote into a page. */
async function renders(executablePath: string): Promise<string> {
  const browser = await chromium.launch({ executablePath, args: [...chromiumArgs], headless: true });
  try {
    const page = await browser.newPage();
    await page.setContent("<p id=out></p><script>document.getElementById('out').textContent = 'rendered ' + (6 * 7)</script>");
    return (await page.textContent("#out")) ?? "";
  } finally {
    await browser.close();
  }
}

describe("the npm browser (@sparticuz/chromium)", () => {
  let npmPath = "";
  beforeAll(async () => {
    ({ executablePath: npmPath } = await resolveChromium({ BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM: "1", PATH: process.env["PATH"] }));
  });

  it("with the system's ignored, is unpacked into the cache and renders a page", async () => {
    const resolved = await resolveChromium({ BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM: "1", PATH: process.env["PATH"] });
    expect(resolved).toEqual({ executablePath: npmPath, source: "npm" });
    expect(npmPath).toMatch(/node_modules\/\.cache\/chromium\/\d+\.\d+\.\d+\/chromium$/);
    expect(await renders(npmPath)).toBe("rendered 42");
  });

  it("is used when PATH has no Chromium, without the switch", async () => {
    expect(await resolveChromium({ PATH: scratch })).toEqual({ executablePath: npmPath, source: "npm" });
  });

  it("unpacked by several processes at once into an empty cache, every one gets the same complete browser and no staging folder is left", async () => {
    const cache = join(scratch, "concurrent-cache");
    const script = `import { resolveChromium } from ${JSON.stringify(new URL("../src/browser.ts", import.meta.url).pathname)}; const resolved = await resolveChromium({ BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM: "1", BOT_CONVERSATION_CHROMIUM_CACHE: ${JSON.stringify(cache)} }); process.stdout.write(resolved.executablePath);`;
    const runs = await Promise.all([1, 2, 3].map(() => promisify(execFile)(process.execPath, ["--input-type=module", "--eval", script])));
    const paths = new Set(runs.map((run) => run.stdout));
    expect([...paths]).toEqual([join(cache, npmPath.split("/").at(-2) ?? "", "chromium")]);
    expect(await readdir(cache)).toEqual([npmPath.split("/").at(-2)]);
    expect(await renders([...paths][0] ?? "")).toBe("rendered 42");
  });

  describe("the system's Chromium on PATH", () => {
    let systemDirectory = "";
    beforeAll(async () => {
      systemDirectory = await mkdtemp(join(scratch, "system-"));
      await symlink(npmPath, join(systemDirectory, "chromium"));
    });

    it("is found by name on PATH before the npm browser, and renders a page", async () => {
      const resolved = await resolveChromium({ PATH: `${join(scratch, "missing")}:${systemDirectory}` });
      expect(resolved).toEqual({ executablePath: join(systemDirectory, "chromium"), source: "system" });
      expect(await renders(resolved.executablePath)).toBe("rendered 42");
    });

    it("is passed over with BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM=1", async () => {
      expect(await resolveChromium({ PATH: systemDirectory, BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM: "1" })).toEqual({
        executablePath: npmPath,
        source: "npm",
      });
    });

    it("a file by that name that is not executable is not a browser", async () => {
      const notExecutable = await mkdtemp(join(scratch, "not-executable-"));
      await writeFile(join(notExecutable, "chromium"), "not a browser", { mode: 0o644 });
      expect((await resolveChromium({ PATH: notExecutable })).source).toBe("npm");
    });

    it("an explicit BOT_CONVERSATION_CHROMIUM wins over it, and renders a page", async () => {
      const resolved = await resolveChromium({ PATH: systemDirectory, BOT_CONVERSATION_CHROMIUM: npmPath });
      expect(resolved).toEqual({ executablePath: npmPath, source: "explicit" });
      expect(await renders(resolved.executablePath)).toBe("rendered 42");
    });
  });
});

describe("bad settings are named, never passed over", () => {
  it("an explicit path that is not an executable file", async () => {
    await expect(resolveChromium({ BOT_CONVERSATION_CHROMIUM: join(scratch, "no-such-chromium") })).rejects.toThrow(
      /^BOT_CONVERSATION_CHROMIUM is ".*no-such-chromium", which is not an executable file/,
    );
  });

  it("an ignore switch that is neither 1 nor 0", async () => {
    await expect(resolveChromium({ BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM: "yes" })).rejects.toThrow(
      'BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM is "yes"; expected 1 (ignore the system\'s Chromium) or 0',
    );
  });
});

describe("launchChromium", () => {
  it("launches what the process's environment resolves to, headless with the workspace's flags", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.setContent("<script>document.title = String(navigator.webdriver)</script>");
      expect(await page.title()).toBe("true");
      expect(browser.version()).toMatch(/^\d+\./);
    } finally {
      await browser.close();
    }
  });
});
