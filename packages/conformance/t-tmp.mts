import { createSandbox } from "@bot-conversation/sandbox";
import { runConformance } from "./src/index.ts";
import { exampleFixture, fixtureBot } from "./test/support/sandbox.ts";

for (const switches of [{}, { pageBase: 1 as const, dateTo: "exclusive" as const, defaultPageSize: 7 }]) {
  const sandbox = await createSandbox({ fixture: exampleFixture(), ...switches });
  for (const agentStageId of [undefined, fixtureBot]) {
    const report = await runConformance({
      baseUrl: "http://sandbox.test",
      token: "sandbox-token",
      fetch: sandbox.fetch,
      seed: 3,
      rate: 0,
      ...(agentStageId ? { agentStageId } : {}),
    });
    const model = report.checks.find((check) => check.name === "search_model")!;
    console.log(
      JSON.stringify(switches),
      agentStageId ?? "-",
      report.requests,
      model.status,
      model.passed,
      model.failed,
      model.notJudged,
      model.notJudgedReasons,
      model.failures.map((f) => f.message),
      report.checks.filter((c) => c.failed > 0).map((c) => c.name),
    );
  }
  await sandbox.close();
}
