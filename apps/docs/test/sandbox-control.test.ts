import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inlineScripts } from "../src/csp.ts";
import { distDirectory } from "../src/paths.ts";
import { sandboxControlPage } from "../src/sandbox-control.ts";

const html = readFileSync(join(distDirectory, sandboxControlPage), "utf8");

describe("the sandbox control API's page", () => {
  it("renders the control API's description: every route under /_sandbox/", () => {
    const definition = JSON.parse(/const __redoc_definition = (\{.*\});\s*$/m.exec(html)?.[1] ?? "null") as { info: { title: string }; paths: Record<string, Record<string, { operationId: string }>> };
    expect(definition.info.title).toBe("Bot Conversation Sandbox control API");
    const routes = Object.entries(definition.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`));
    expect(routes.sort()).toEqual([
      "DELETE /_sandbox/faults clearSandboxFaults",
      "GET /_sandbox/conversations/{conversationId}/export exportSandboxConversation",
      "GET /_sandbox/fired-events listSandboxFiredEvents",
      "POST /_sandbox/faults addSandboxFault",
      "POST /_sandbox/reset resetSandbox",
      "PUT /_sandbox/fixture loadSandboxFixture",
    ]);
  });

  it("is self-contained like the main reference: no remote script or style, a policy with its inline scripts' hashes", () => {
    const external = [...html.matchAll(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="([^"]+)"/gi)].map((match) => match[1] ?? "").filter((url) => /^(https?:)?\/\//i.test(url));
    expect(external).toEqual([]);
    expect(html).not.toContain("cdn.redocly.com");
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(policy?.match(/'sha256-[^']+'/g)).toHaveLength(inlineScripts(html).length);
  });
});
