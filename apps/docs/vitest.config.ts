import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/** Tests read the built site and drive a real Chromium. */
export default workspaceTestConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
