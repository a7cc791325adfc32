import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expect, it, vi } from "vitest";
import { freePort } from "../src/port.ts";
import { token } from "./support/mock.ts";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

const mainPath = fileURLToPath(new URL("../src/main.ts", import.meta.url));

/** Resolves with the first stdout line that matches, or rejects when the process exits first. */
function waitForLine(child: ReturnType<typeof spawn>, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      seen += chunk;
      const line = seen.split("\n").find((candidate) => pattern.test(candidate));
      if (line) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`launcher exited (${code}) before printing ${pattern}; stdout:\n${seen}`)));
  });
}

it("prints the URL when ready, answers, and stops cleanly on SIGINT", async () => {
  const port = await freePort();
  const child = spawn(process.execPath, [mainPath, "--port", String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = once(child, "exit");
  try {
    const line = await waitForLine(child, /^Mock ready at /);
    expect(line).toBe(`Mock ready at http://127.0.0.1:${port}`);
    const response = await fetch(`http://127.0.0.1:${port}/api/v2/channels/conversations`, { headers: token });
    expect(response.status).toBe(200);
    child.kill("SIGINT");
    const [code] = await exited;
    expect(code).toBe(0);
    // Prism went down with the launcher: nothing listens on the port any more.
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
});
