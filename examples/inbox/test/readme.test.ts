import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { describe, expect, it, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

const appDir = fileURLToPath(new URL("..", import.meta.url));
const readme = await readFile(`${appDir}README.md`, "utf8");
/** The code of every fenced block of a language in a README (this app's by default). */
const blocks = (language: string, text = readme) => [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((match) => match[1]!);

describe("README.md", () => {
  it("the three lines to copy are the app's own, each as written in its source (which the Chromium tests run)", async () => {
    const [lines] = blocks("tsx");
    const copied = lines!.trim().split("\n");
    expect(copied).toHaveLength(3);
    const sources = await Promise.all((await readdir(`${appDir}src`)).map((name) => readFile(`${appDir}src/${name}`, "utf8")));
    for (const line of copied)
      expect(
        sources.filter((source) => source.split("\n").some((sourceLine) => sourceLine.trim() === line)),
        line,
      ).toHaveLength(1);
  });

  it("the query package's README shows the same three lines for React", async () => {
    const queryReadme = await readFile(`${appDir}../../packages/query/README.md`, "utf8");
    expect(blocks("tsx", queryReadme)).toEqual(blocks("tsx"));
  });

  it("the dev command serves the app and MSW's worker script (on a free port here)", async () => {
    const [commands] = blocks("sh");
    const dev = commands!
      .split("\n")
      .find((line) => line.startsWith("pnpm "))!
      .split("#")[0]!
      .trim();
    expect(dev).toBe("pnpm --filter @bot-conversation/example-inbox dev");
    const [command, ...args] = dev.split(" ");
    const child = spawn(command!, [...args, "--port", "0", "--host", "127.0.0.1"], { cwd: appDir, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    try {
      let output = "";
      const url = await new Promise<string>((resolve, reject) => {
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const ready = /Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ""));
          if (ready) resolve(ready[1]!);
        };
        child.stdout.on("data", read);
        child.stderr.on("data", read);
        child.once("exit", (code) => reject(new Error(`dev exited with ${code}:\n${output}`)));
      });
      expect(await (await fetch(url)).text()).toContain('<div id="root"></div>');
      const main = await fetch(`${url}src/main.tsx`);
      expect(main.status).toBe(200);
      expect(await main.text()).toContain("QueryClientProvider");
      // MSW's worker script for the in-page sandbox, served beside the app.
      const worker = await fetch(`${url}mockServiceWorker.js`);
      expect(await worker.text()).toContain("Mock Service Worker");
    } finally {
      const exited = once(child, "exit");
      // pnpm runs vite as its child: the whole process group is stopped.
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
  });
});
