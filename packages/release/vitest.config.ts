import { hangGuardMs } from "@bot-conversation/test-support/timeouts";
import { workspaceTestConfig } from "@bot-conversation/test-support/vitest-config";

/**
 * Packing, installing with npm and `redocly diff` take seconds each; packing every package and installing them
 * outside the workspace about a minute on an idle machine (its hook took over 240 s in a loaded CI run). Hang guards.
 */
export default workspaceTestConfig({ testTimeout: hangGuardMs(60_000), hookTimeout: hangGuardMs(60_000) });
