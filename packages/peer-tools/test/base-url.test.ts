import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { client } from "../generated/hey-api/client.gen.ts";
import { bundlePath } from "../src/paths.ts";

const { servers } = parse(readFileSync(bundlePath, "utf8")) as { servers: { url: string }[] };

describe("a usable default base URL for generators", () => {
  it("the first server is a concrete http URL, with no variable left in it", () => {
    const url = new URL(servers[0]?.url ?? "");
    expect(url.protocol).toBe("http:");
    expect(servers[0]?.url).not.toMatch(/[{}]/);
  });

  it("@hey-api/openapi-ts's client defaults to it", () => {
    expect(client.getConfig().baseUrl).toBe(servers[0]?.url);
  });
});
