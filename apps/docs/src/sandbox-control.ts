import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { distDirectory, templatePath } from "./paths.ts";
import { runRedocly } from "./redocly.ts";
import { withRelativeAddresses } from "./relative.ts";
import { sandboxControlPage } from "./sandbox-link.ts";
import { applyContentSecurityPolicy, useLocalViewer } from "./site.ts";
import { servedViewer } from "./viewer.ts";

/**
 * Builds the page of the sandbox's control API (`/_sandbox/`, `packages/sandbox/openapi/sandbox-control.yaml`,
 * the `sandbox-control@v1` entry of `redocly.yaml`): a page of its own, since it is not part of the
 * service, made the same way as the main reference (same template, local viewer, same policy). Its
 * own links become its hash routes (`#/faults`), so opened in a new tab they show this page at that
 * place, not the main reference.
 */
export async function buildSandboxControlPage(): Promise<void> {
  const pagePath = join(distDirectory, sandboxControlPage);
  await runRedocly(["build-docs", "sandbox-control@v1", "--output", pagePath, "--template", templatePath]);
  writeFileSync(pagePath, applyContentSecurityPolicy(withRelativeAddresses(useLocalViewer(readFileSync(pagePath, "utf8"), servedViewer()))));
}
