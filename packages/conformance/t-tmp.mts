import { createSandbox } from "@bot-conversation/sandbox";
import { runConformance } from "./src/index.ts";
import { exampleFixture, fixtureBot, fixtureConversation, sandboxExportPath } from "./test/support/sandbox.ts";

const sandbox = await createSandbox({ fixture: exampleFixture() });
for (const opts of [
  { maxResponseTimeMs: 60000, allowFire: true, ...fixtureConversation, agentStageId: fixtureBot, exportPath: sandboxExportPath, seed: 5, examples: 5 },
  { maxRequests: 30, seed: 1 },
]) {
  const report = await runConformance({ baseUrl: "http://sandbox.test", token: "sandbox-token", fetch: sandbox.fetch, rate: 0, ...opts });
  console.log(
    report.requests,
    report.checks
      .filter((c) => c.failed > 0)
      .map((c) => [c.name, c.failures.slice(0, 3).map((f) => f.message + " | " + f.sent + " | " + f.received.slice(0, 200))]),
  );
}
await sandbox.close();
