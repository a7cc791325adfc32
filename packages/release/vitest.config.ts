import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/** Packing, installing with npm and `redocly diff` take seconds each. */
export default workspaceTestConfig({ testTimeout: 240_000, hookTimeout: 240_000 });
