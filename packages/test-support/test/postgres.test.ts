import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../src/postgres.ts";
import { heavyTestTimeoutMs } from "../src/timeouts.ts";

describe("startPostgres", () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, heavyTestTimeoutMs);
  afterAll(() => server?.dispose(), heavyTestTimeoutMs);

  const query = async (url: string, text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };

  it(
    "serves a real PostgreSQL on 127.0.0.1 that keeps its data across a stop and a start",
    async () => {
      expect(server.url).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
      const url = await server.createDatabase("kept");
      await query(url, "CREATE TABLE kept (value text); INSERT INTO kept VALUES ('before the stop')");
      const [version] = await query(url, "SHOW server_version");
      expect(String(version?.server_version)).toMatch(/^18\./);
      await server.stop();
      await expect(query(url, "SELECT 1")).rejects.toThrow(/ECONNREFUSED/);
      await server.start();
      expect(await query(url, "SELECT value FROM kept")).toEqual([{ value: "before the stop" }]);
    },
    heavyTestTimeoutMs,
  );
});
