import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inlineScripts } from "../src/csp.ts";
import { bundlePath, distDirectory } from "../src/paths.ts";
import { operationsById, readCodeSamples } from "../src/samples.ts";
import { viewerFileName } from "../src/viewer.ts";

const html = readFileSync(join(distDirectory, "index.html"), "utf8");
const viewer = readFileSync(join(distDirectory, viewerFileName), "utf8");
const description = JSON.parse(readFileSync(join(distDirectory, "openapi.json"), "utf8"));

describe("the built site is self-contained", () => {
  it("loads every script, style and link from its own origin", () => {
    const external = [...html.matchAll(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="([^"]+)"/gi)]
      .map((match) => match[1] ?? "")
      .filter((url) => /^(https?:)?\/\//i.test(url));
    expect(external).toEqual([]);
    expect(html).not.toContain("cdn.redocly.com");
  });

  it("serves the viewer from the site, with no remote images left in it", () => {
    expect(html).toContain(`from "./${viewerFileName}"`);
    expect(viewer).not.toContain("https://cdn.redoc.ly/redoc/logo-mini");
  });

  it("declares a Content-Security-Policy that allows exactly its inline scripts", () => {
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const hashes = policy?.match(/'sha256-[^']+'/g) ?? [];
    expect(hashes).toHaveLength(inlineScripts(html).length);
  });

  it("loads the Try it panel as a file of the site, under the same strict policy: only the site, 127.0.0.1 and localhost to connect to", () => {
    expect(html).toContain('<script type="module" src="try-it/panel.js"></script>');
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(policy?.replaceAll(/ 'sha256-[^']+'/g, "")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self' http://127.0.0.1:* http://localhost:*; base-uri 'none'; form-action 'none'",
    );
  });
});

describe("code samples", () => {
  it.each([...operationsById(description).entries()].map(([operationId, operation]) => ({ operationId, operation })))(
    "$operationId shows the curl and TypeScript files from samples/",
    ({ operationId, operation }) => {
      expect(operation["x-codeSamples"]).toEqual(readCodeSamples(operationId));
      expect((operation["x-codeSamples"] as { label: string }[]).map(({ label }) => label)).toEqual(["curl", "TypeScript"]);
    },
  );
});

describe("statements the seed does not make", () => {
  const text = JSON.stringify(description);

  it.each(["Firing is not idempotent", "must not retry", "the service returns its first page", "Page 0", "Page 1"])(
    "%s: not stated as the service's",
    (statement) => {
      expect(text).not.toContain(statement);
    },
  );

  it("the retry advice and the first-request advice are marked as this toolkit's recommendation", () => {
    const recommendations = text.match(/This toolkit's recommendation[^.]*\./g) ?? [];
    expect(recommendations.some((sentence) => sentence.includes("retry"))).toBe(true);
    expect(recommendations.some((sentence) => sentence.includes("pageIndex"))).toBe(true);
  });
});

describe("where the samples' token comes from", () => {
  const operationIds = [...operationsById(JSON.parse(readFileSync(bundlePath, "utf8")) as { paths: Record<string, Record<string, unknown>> }).keys()];
  it.each(operationIds)("%s: every sample says to set BOT_CONVERSATION_TOKEN, and where a token comes from", (operationId) => {
    for (const sample of readCodeSamples(operationId)) {
      expect(sample.source, `${operationId} ${sample.label}`).toContain("export BOT_CONVERSATION_TOKEN=");
      expect(sample.source).toContain("sandbox-token");
    }
  });
});
