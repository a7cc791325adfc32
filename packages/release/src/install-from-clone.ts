import { readFileSync } from "node:fs";
import { join } from "node:path";
import { workspaceRoot } from "./major-guard.ts";
import { publicPackages } from "./packages.ts";

/** A public package's folder in the workspace, where its README and manifest are. */
export const packageDirectories: Record<(typeof publicPackages)[number], string> = {
  "@bot-conversation/openapi": "openapi",
  "@bot-conversation/types": "packages/types",
  "@bot-conversation/client": "packages/client",
  "@bot-conversation/query": "packages/query",
  "@bot-conversation/sandbox": "packages/sandbox",
  "@bot-conversation/conformance": "packages/conformance",
  "@bot-conversation/cli": "packages/cli",
};

interface Manifest {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** A public package's manifest, as in the workspace. */
export function manifestOf(name: (typeof publicPackages)[number]): Manifest {
  return JSON.parse(readFileSync(join(workspaceRoot, packageDirectories[name], "package.json"), "utf8")) as Manifest;
}

/** The package and every workspace package it depends on at run time (`pnpm --filter-prod "<name>..."`), in `publicPackages` order: the tarballs it needs. */
export function tarballsNeeded(name: (typeof publicPackages)[number]): (typeof publicPackages)[number][] {
  const needed = new Set<string>();
  const visit = (current: (typeof publicPackages)[number]) => {
    if (needed.has(current)) return;
    needed.add(current);
    for (const [dependency, version] of Object.entries(manifestOf(current).dependencies ?? {})) {
      if (version.startsWith("workspace:")) visit(dependency as (typeof publicPackages)[number]);
    }
  };
  visit(name);
  return publicPackages.filter((candidate) => needed.has(candidate));
}

/** Where a package's README packs its tarballs: `/tmp/bot-conversation-query` for `@bot-conversation/query`. */
export const packDestinationOf = (name: string): string => `/tmp/${name.replace("@bot-conversation/", "bot-conversation-")}`;

/**
 * The commands a package's README gives to install it today, from a clone (after `pnpm build`): pack
 * it with its dependencies (pnpm writes real versions in place of `workspace:` ones), then install
 * those tarballs, and the peers it needs, into the app.
 */
export function installFromClone(name: (typeof publicPackages)[number], peers: readonly string[] = []): string[] {
  const destination = packDestinationOf(name);
  return [
    "pnpm build",
    `pnpm --filter-prod "${name}..." pack --pack-destination ${destination}`,
    `cd ~/my-app && npm install ${[`${destination}/*.tgz`, ...peers].join(" ")}`,
  ];
}

/** How a README names the tarballs a package needs today: "the tarballs it needs today are `a`, `b` and `c`". */
export function tarballsSentence(name: (typeof publicPackages)[number]): string {
  const names = tarballsNeeded(name).map((needed) => `\`${needed}\``);
  if (names.length === 1) return `the tarball it needs today is ${names[0]}`;
  return `the tarballs it needs today are ${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The peers each package's README installs beside its tarballs. */
export const readmePeers: Partial<Record<(typeof publicPackages)[number], readonly string[]>> = {
  "@bot-conversation/query": ["@tanstack/query-core"],
  "@bot-conversation/sandbox": ["msw"],
};

/** The paragraph and block of a package's README that install it from a clone, as the README shows them. */
export function installSection(name: (typeof publicPackages)[number]): string {
  return [
    `Until the packages are on the npm registry, install from a clone of this repository: ${tarballsSentence(name)}, which one \`pnpm pack\` writes (the package with its dependencies, real versions in place of the workspace ones):`,
    "",
    "```bash",
    ...installFromClone(name, readmePeers[name] ?? []),
    "```",
  ].join("\n");
}
