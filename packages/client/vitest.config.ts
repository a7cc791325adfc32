import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

export default workspaceTestConfig({
  // A real Prism process serves the bundled description for the whole run, and is stopped after.
  globalSetup: ["test/setup/prism.ts"],
  // Type tests (`*.test-d.ts`) run through tsc; a type error fails the run and is counted.
  typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "tsconfig.json" },
  testTimeout: 30_000,
  // Each file in a fresh module cache: files fake timers and replace a Response's readers around the client's
  // own modules, which another file must not inherit (they failed with shared modules).
  isolate: true,
});
