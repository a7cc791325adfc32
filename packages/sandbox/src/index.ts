/** The sandbox of the Bot Conversation Service as a library: in process (`createSandbox`) or over HTTP (`startSandboxServer`). */

export { newSandboxCommand, runSandboxCommand, type SandboxCommandIo, sandboxUsage } from "./cli/command.ts";
export { LaunchError, type LaunchedSandbox, type LaunchOptions, launchSandbox } from "./cli/launch.ts";
export { parseServerOptions } from "./cli/parse.ts";
export { type ExchangeBody, type ExchangeRecord, exchangeBodyBytes, exchangeBodyText, parseExchanges } from "./data/exchanges.ts";
export { FixtureError } from "./data/fixture.ts";
export { conversationOfSummary, fixtureDefects, maxRebuiltMessages, type RebuiltConversation } from "./data/recorded.ts";
export { type Defect, workspaceNameDefects } from "./description.ts";
export { type Fixture, type LogFormat, type SandboxState, sandboxStates } from "./model.ts";
export { minimumNode, requireNode } from "./node-version.ts";
export { createLogger, flushLogs, type SandboxLogger } from "./observe/log.ts";
export type { Problem } from "./operations/problem.ts";
export { type Delay, defaultOptions, type Latency, type SandboxOptions, type ServerOptions } from "./options.ts";
export { type CreateSandboxOptions, createSandbox, type RunningSandbox, type Sandbox, startSandboxServer } from "./sandbox.ts";
export { defaultSwitches, parseSwitch, type SandboxSwitches, type SwitchDefinition, switchDefinitions } from "./switches.ts";
