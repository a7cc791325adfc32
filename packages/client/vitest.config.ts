import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

export default workspaceTestConfig({
  // A real Prism process serves the bundled description for the whole run, and is stopped after.
  globalSetup: ["test/setup/prism.ts"],
  // Type tests (`*.test-d.ts`) run through tsc; a type error fails the run and is counted.
  typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "tsconfig.json" },
  testTimeout: 30_000,
  // Each file in a fresh module cache: a sandbox served in process replaces the process's global `Response` with
  // its HTTP adapter's (Hono's Node server), whose readers the client cannot bound; files after one failed.
  isolate: true,
});
