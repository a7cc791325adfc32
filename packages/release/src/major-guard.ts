import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkBreakingChanges, defaultBaseline, defaultRevision } from "@bot-conversation/openapi/check-breaking";
import { getReleasePlan } from "@changesets/get-release-plan";

/** The published packages generated from the description: they ship a major when the description breaks. */
export const generatedPackages = ["@bot-conversation/types", "@bot-conversation/client"] as const;

/** Where the guard looks: the workspace (its packages and `.changeset/`) and the two descriptions to compare. */
export interface MajorGuardInput {
  /** Root of the workspace whose pending changesets and package versions are read. */
  readonly workspaceRoot: string;
  /** The released description (default: `openapi/baseline/openapi.yaml`). */
  readonly baseline?: string;
  /** The description about to ship (default: the bundle in `openapi/dist/`). */
  readonly revision?: string;
}

/** One generated package's version as it would ship. */
export interface PlannedPackage {
  /** Package name. */
  readonly name: string;
  /** Version in its package.json now. */
  readonly currentVersion: string;
  /** Version after the pending changesets are applied (the current one when none bumps it). */
  readonly plannedVersion: string;
}

/** The guard's verdict. */
export interface MajorGuardVerdict {
  /** True when the description and the packages may ship as planned. */
  readonly ok: boolean;
  /** Breaking changes of the description since the baseline, as `redocly diff` words them. */
  readonly majorChanges: string[];
  /** Each generated package's current and planned version. */
  readonly packages: PlannedPackage[];
  /** What is wrong, one line each (empty when `ok`). */
  readonly problems: string[];
}

function majorOf(version: string): number {
  const match = /^(\d+)\.\d+\.\d+/.exec(version);
  if (!match) throw new Error(`a version must be MAJOR.MINOR.PATCH, got "${version}"`);
  return Number(match[1]);
}

async function currentVersion(workspaceRoot: string, name: string): Promise<string> {
  const directory = join(workspaceRoot, "packages", name.replace("@bot-conversation/", ""));
  const manifest = JSON.parse(await readFile(join(directory, "package.json"), "utf8")) as { name: string; version: string };
  if (manifest.name !== name) throw new Error(`${directory}/package.json is ${manifest.name}, expected ${name}`);
  return manifest.version;
}

/**
 * Checks that a major change of the description cannot ship without a major version of the packages
 * generated from it. Rules: the description passes its own breaking-change guard (a breaking change
 * needs a major `info.version`), and each generated package's planned version (after the pending
 * changesets) has a major at least the description's. So when the description breaks, its major
 * rises and the packages must rise with it; they never lag behind it.
 */
export async function checkMajorGuard({ workspaceRoot, baseline = defaultBaseline, revision = defaultRevision }: MajorGuardInput): Promise<MajorGuardVerdict> {
  const description = checkBreakingChanges(baseline, revision);
  const plan = await getReleasePlan(workspaceRoot);
  const packages = await Promise.all(
    generatedPackages.map(async (name) => {
      const current = await currentVersion(workspaceRoot, name);
      const release = plan.releases.find((candidate) => candidate.name === name && candidate.type !== "none");
      return { name, currentVersion: current, plannedVersion: release?.newVersion ?? current };
    }),
  );
  const problems: string[] = [];
  if (!description.ok) problems.push(`the description: ${description.reason}`);
  const descriptionMajor = majorOf(description.revisionVersion);
  for (const planned of packages) {
    if (majorOf(planned.plannedVersion) < descriptionMajor) {
      const why =
        description.majorChanges.length > 0
          ? `the description has ${description.majorChanges.length} breaking change(s) since ${description.baseVersion}`
          : "the packages never lag behind the description's major";
      problems.push(
        `${planned.name} would ship as ${planned.plannedVersion}, but the description is ${description.revisionVersion} and ${why}: add a major changeset (pnpm changeset)`,
      );
    }
  }
  return { ok: problems.length === 0, majorChanges: description.majorChanges, packages, problems };
}

/** The workspace this file belongs to. */
export const workspaceRoot = fileURLToPath(new URL("../../..", import.meta.url));
