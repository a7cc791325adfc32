import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { distDirectory, templatePath } from "./paths.ts";
import { runRedocly } from "./redocly.ts";
import { sandboxControlPage } from "./sandbox-link.ts";
import { applyContentSecurityPolicy, useLocalViewer } from "./site.ts";
import { servedViewer } from "./viewer.ts";

/**
 * Builds the page of the sandbox's control API (`/_sandbox/`, `apps/sandbox/openapi/sandbox-control.yaml`,
 * the `sandbox-control@v1` entry of `redocly.yaml`): a page of its own, since it is not part of the
 * service, made the same way as the main reference (same template, local viewer, same policy).
 */
export async function buildSandboxControlPage(): Promise<void> {
  const pagePath = join(distDirectory, sandboxControlPage);
  await runRedocly(["build-docs", "sandbox-control@v1", "--output", pagePath, "--template", templatePath]);
  writeFileSync(pagePath, applyContentSecurityPolicy(useLocalViewer(ownAddresses(readFileSync(pagePath, "utf8")), servedViewer())));
}

/**
 * The page's own links as addresses of this page: the viewer prerenders them as site paths
 * (`/faults`), which opened in a new tab (or without scripts) lead to the main reference's routes,
 * not to this page. They become `/sandbox-control.html#/faults`, the form the viewer routes by.
 */
export function ownAddresses(html: string): string {
  return html.replace(/href="\/([\w-][\w/-]*)"/g, `href="/${sandboxControlPage}#/$1"`);
}
