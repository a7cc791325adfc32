import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/** The validators and zod read the bundle and the generated code; type tests (`*.test-d.ts`) run through tsc and are counted. */
export default workspaceTestConfig({
  typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "tsconfig.json" },
  testTimeout: 30_000,
});
