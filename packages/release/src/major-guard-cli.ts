/** `pnpm --filter @bot-conversation/release guard`: prints the verdict of the major-version guard; exit status 1 when it fails. */
import { checkMajorGuard, workspaceRoot } from "./major-guard.ts";

const verdict = await checkMajorGuard({ workspaceRoot });
for (const planned of verdict.packages) console.log(`${planned.name}: ${planned.currentVersion} -> ${planned.plannedVersion}`);
for (const change of verdict.majorChanges) console.log(`breaking change of the description: ${change}`);
for (const problem of verdict.problems) console.error(`release guard: ${problem}`);
console.log(verdict.ok ? "release guard: ok" : "release guard: failed");
process.exitCode = verdict.ok ? 0 : 1;
