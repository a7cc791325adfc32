import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/** Tests run the command against the real sandbox on loopback, in process and as a child process. */
export default workspaceTestConfig({ testTimeout: 120_000, hookTimeout: 90_000 });
