/** `--max-page-size` below the default page size (issue 38): refused in one line, by one rule, from the command, `PUT /_sandbox/switches` and `workspaces create` alike. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSandbox, parseServerOptions, type Sandbox } from "../src/index.ts";

const adminToken = "admin-token-of-the-tests-5d1c";
const headers = { "x-token": "sandbox-token", "content-type": "application/json" };
const rule =
  /--max-page-size 10 is below --default-page-size 20, so every search that sends no pageSize would be refused; give a --default-page-size of at most 10 with it/;

describe("--max-page-size below the default page size", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ adminToken });
  });
  afterAll(() => sandbox?.close());

  test("the command and createSandbox refuse it in one line naming both; with a default page size within it, a search that names none is answered", async () => {
    expect(() => parseServerOptions(["--max-page-size", "10"], {})).toThrow(rule);
    await expect(createSandbox({ maxPageSize: 10 })).rejects.toThrow(rule);
    const within = await createSandbox({ maxPageSize: 10, defaultPageSize: 10 });
    try {
      const response = await within.fetch("http://sandbox.invalid/api/v2/channels/conversations", { headers });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { pageSize: number }).pageSize).toBe(10);
    } finally {
      await within.close();
    }
  });

  test("PUT /_sandbox/switches refuses it with a 400 naming both, and nothing changes", async () => {
    const response = await sandbox.fetch("http://sandbox.invalid/_sandbox/switches", { method: "PUT", headers, body: JSON.stringify({ maxPageSize: 10 }) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toMatch(rule);
    const search = await sandbox.fetch("http://sandbox.invalid/api/v2/channels/conversations", { headers });
    expect(search.status).toBe(200);
  });

  test("creating a workspace with it is refused with a 400 naming both, and no workspace is made", async () => {
    const response = await sandbox.fetch("http://sandbox.invalid/_sandbox/workspaces", {
      method: "POST",
      headers: { ...headers, "x-token": adminToken },
      body: JSON.stringify({ name: "small-pages", switches: { maxPageSize: 10 } }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toMatch(rule);
    const list = await sandbox.fetch("http://sandbox.invalid/_sandbox/workspaces", { headers: { "x-token": adminToken } });
    expect(((await list.json()) as { name: string }[]).map((workspace) => workspace.name)).not.toContain("small-pages");
  });
});
