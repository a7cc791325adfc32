import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

export default workspaceTestConfig({
  testTimeout: 60_000,
  hookTimeout: 180_000,
  // A page waits on a browser, two servers and, for the in-page sandbox, a service worker: `expect.poll` waits up to 30 s (a guard, not a timing).
  expect: { poll: { timeout: 30_000 } },
  // Type tests (`*.test-d.ts`) run through tsc; a type error fails the run and is counted.
  typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "tsconfig.json" },
});
