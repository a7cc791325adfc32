import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/** Tests run against the real Prism process. */
export default workspaceTestConfig({ testTimeout: 30_000, hookTimeout: 90_000 });
