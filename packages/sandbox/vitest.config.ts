import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/** Tests run the real sandbox, in process and as a process on loopback. */
export default workspaceTestConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
