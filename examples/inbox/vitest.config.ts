import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

export default workspaceTestConfig({ testTimeout: 60_000, hookTimeout: 180_000 });
