import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

export default workspaceTestConfig({ testTimeout: 30_000 });
