import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

export default workspaceTestConfig({
  // A real Prism process serves the bundled description for the whole run, and is stopped after.
  globalSetup: ["test/setup/prism.ts"],
  // Type tests (`*.test-d.ts`) run through tsc; a type error fails the run and is counted.
  typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "tsconfig.json" },
  testTimeout: 30_000,
});
