/** The conformance kit: checks any server of the Bot Conversation Service against the description. */
export { runConformance, ServerUnusableError, type ConformanceReport, type PhaseTiming } from "./runner.ts";
export { UsageError, type ConformanceOptions, type Progress } from "./options.ts";
export { checkDescriptions, checkNames, type CheckName } from "./checks/index.ts";
export type { CheckResult, Failure } from "./results.ts";
export type { Finding } from "./discovery.ts";
export { humanReport } from "./report/human.ts";
export { jsonReport } from "./report/json.ts";
export { junitReport } from "./report/junit.ts";
export { main as runCheckCommand, exitCodes, type CommandIo } from "./command.ts";
