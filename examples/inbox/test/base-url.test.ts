import { execFile } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type HostileServer, startHostileServer } from "@bot-conversation/test-support/hostile-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSettings, readSettings } from "../src/settings.ts";
import { type InboxRig, startInboxRig } from "./support/inbox.ts";

const buildToken = "build-SECRET-token-71c2";
const packageDir = fileURLToPath(new URL("..", import.meta.url));
/** The servers the page may be sent to: the build's own, and one a link in the page's address names. Both let any origin read their answers. */
let own: HostileServer;
let linked: HostileServer;
let rig: InboxRig;

beforeAll(async () => {
  [own, linked] = await Promise.all([
    startHostileServer("echo-token", { headers: { "access-control-allow-origin": "*" } }),
    startHostileServer("echo-token", { headers: { "access-control-allow-origin": "*" } }),
  ]);
  // A build with a token of its own, aimed at its own server, as a team would deploy it.
  const outDir = join(await mkdtemp(join(tmpdir(), "inbox-build-")), "dist");
  await promisify(execFile)(
    process.execPath,
    [join(packageDir, "node_modules/vite/bin/vite.js"), "build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "error"],
    {
      cwd: packageDir,
      env: { ...process.env, VITE_BOT_CONVERSATION_BASE_URL: own.url, VITE_BOT_CONVERSATION_TOKEN: buildToken },
    },
  );
  rig = await startInboxRig(`${outDir}/`);
});
afterAll(async () => {
  await rig?.close();
  await Promise.all([own?.close(), linked?.close()]);
});

/** The X-Token of every request a server got from the page (preflights carry none). */
const tokensSeen = (server: HostileServer) => server.requests.filter((request) => request.method !== "OPTIONS").map((request) => request.headers["x-token"]);

describe("the inbox never pairs its build's token with a base address from the page's address", () => {
  it("the build's own base address gets the build's token", async () => {
    const page = await rig.openWith({});
    await expect.poll(() => tokensSeen(own).length).toBeGreaterThan(0);
    expect(new Set(tokensSeen(own))).toEqual(new Set([buildToken]));
    await page.close();
  });

  it("?baseUrl= in the page's address is sent the sandbox's public token, never the build's", async () => {
    const page = await rig.openWith({ baseUrl: linked.url });
    await expect.poll(() => tokensSeen(linked).length).toBeGreaterThan(0);
    expect(new Set(tokensSeen(linked))).toEqual(new Set([defaultSettings.token]));
    await page.close();
  });

  it("?baseUrl= with ?token=: the page's own pair", async () => {
    const before = tokensSeen(linked).length;
    const page = await rig.openWith({ baseUrl: linked.url, token: "page-token-9" });
    await expect.poll(() => tokensSeen(linked).length).toBeGreaterThan(before);
    expect(new Set(tokensSeen(linked).slice(before))).toEqual(new Set(["page-token-9"]));
    expect(tokensSeen(linked)).not.toContain(buildToken);
    await page.close();
  });
});

describe("readSettings: one source for the base address and the token", () => {
  const env = { VITE_BOT_CONVERSATION_BASE_URL: "https://bots.example.com", VITE_BOT_CONVERSATION_TOKEN: buildToken };
  it.each([
    ["", { baseUrl: "https://bots.example.com", token: buildToken }],
    ["?baseUrl=https://evil.example", { baseUrl: "https://evil.example", token: defaultSettings.token }],
    ["?baseUrl=https://evil.example&token=t-1", { baseUrl: "https://evil.example", token: "t-1" }],
    ["?token=t-2", { baseUrl: "https://bots.example.com", token: "t-2" }],
  ])("%s", (search, expected) => {
    expect(readSettings(search, env)).toMatchObject(expected);
  });
});
