/** The README's "Running a shared sandbox", run: its replica command line twice on a real PostgreSQL, behind a load balancer, and its curl lines through it. */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { startRoundRobin } from "@bot-conversation/test-support/round-robin";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expect, test } from "vitest";
import { type LaunchedSandbox, launchSandbox } from "../src/index.ts";
import { shellCommands } from "./support/readme-commands.ts";
import { adminToken, usePostgres } from "./support/shared.ts";

const run = promisify(execFile);
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const postgres = usePostgres();

test(
  "two replicas started by the README's line serve the workspace its curl lines create, list, search, read and remove through a load balancer",
  async () => {
    const line = shellCommands(readme).find((command) => command.startsWith("DATABASE_URL="));
    expect(line).toBeDefined();
    // The line's flags as given (its host and port aside: a test listens on 127.0.0.1, on any free port); its environment, with the test's database and token.
    const flags = line!.split("bot-conversation-sandbox ")[1]!.replace("--host 0.0.0.0", "--host 127.0.0.1").replace("--port 4011", "").trim().split(/\s+/);
    expect(line).toMatch(/^DATABASE_URL=\S+ SANDBOX_ADMIN_TOKEN=.+ bot-conversation-sandbox /);
    const env = { DATABASE_URL: await postgres.database(), SANDBOX_ADMIN_TOKEN: adminToken };
    const replicas: LaunchedSandbox[] = [];
    try {
      replicas.push(await launchSandbox(flags, { env }), await launchSandbox(flags, { env }));
      const balancer = await startRoundRobin(replicas.map((replica) => replica.url));
      try {
        const curls = shellCommands(readme).filter((command) => command.startsWith("curl") && command.includes("http://sandbox.internal"));
        expect(curls).toHaveLength(5);
        const outputs: string[] = [];
        let mobileToken = "";
        for (const command of curls) {
          const { stdout } = await run("bash", ["-c", command.replaceAll("http://sandbox.internal", balancer.url)], {
            env: { ...process.env, ...env, MOBILE_TOKEN: mobileToken },
          });
          outputs.push(stdout);
          if (outputs.length === 1) mobileToken = (JSON.parse(stdout) as { token: string }).token;
        }
        const [created, listed, page, fired, removed] = outputs;
        expect(JSON.parse(created!)).toMatchObject({ name: "mobile", bots: expect.any(Number), conversations: 50 });
        expect((JSON.parse(listed!) as { name: string }[]).map((workspace) => workspace.name)).toEqual(["default", "mobile"]);
        // The workspace's own data and switch: 50 conversations, pages from 1.
        expect(JSON.parse(page!)).toMatchObject({ totalItemCount: 50, pageIndex: 1, pageSize: 5 });
        expect(JSON.parse(fired!)).toEqual([]);
        expect(removed).toBe("");
      } finally {
        await balancer.close();
      }
    } finally {
      for (const replica of replicas) await replica.stop();
    }
  },
  heavyTestTimeoutMs,
);
