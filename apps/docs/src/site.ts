import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { precompress } from "./compress.ts";
import { contentSecurityPolicy, policyPlaceholder } from "./csp.ts";
import { type Bundle, machineSection, writeMachineReference } from "./machine.ts";
import { notFoundPage, withReferenceBase } from "./not-found.ts";
import { bundlePath, distDirectory, templatePath, yamlBundlePath } from "./paths.ts";
import { redocOptions } from "./redoc-options.ts";
import { runRedocly } from "./redocly.ts";
import { withRelativeAddresses, withRelativeMarkdownLinks } from "./relative.ts";
import { writeRedirectPages } from "./routes.ts";
import { withCodeSamples } from "./samples.ts";
import { withSandboxControlLink } from "./sandbox-link.ts";
import { withSearchableText } from "./search-text.ts";
import { withSection } from "./sections.ts";
import { withPlainServerDescriptions } from "./servers.ts";
import { withTryItPlaceholders, withTryItScript, writeTryItScripts } from "./try-it/build.ts";
import type { FormBundle } from "./try-it/form.ts";
import { integrity, servedViewer, viewerFileName } from "./viewer.ts";
import { withWorkflows } from "./workflows.ts";

/** Points the page at the local viewer (beside the page: `./redoc.standalone.js`) instead of Redocly's CDN, and sets its integrity to the served file. */
export function useLocalViewer(html: string, viewer: { source: string; version: string }): string {
  const cdnUrl = `https://cdn.redocly.com/redoc/v${viewer.version}/bundles/redoc.standalone.js`;
  // The page is prerendered by the CLI's own Redoc; hydrating with another version would break it.
  if (!html.includes(cdnUrl)) throw new Error(`build-docs output does not load Redoc ${viewer.version} from ${cdnUrl}`);
  return html
    .replaceAll(cdnUrl, `./${viewerFileName}`)
    .replace(/(<link rel="modulepreload" href="\.\/redoc\.standalone\.js" integrity=")[^"]+(")/, `$1${integrity(viewer.source)}$2`);
}

/** Fills the template's Content-Security-Policy placeholder with the policy for this page. */
export function applyContentSecurityPolicy(html: string): string {
  if (!html.includes(policyPlaceholder)) throw new Error(`template.hbs lost its ${policyPlaceholder} placeholder`);
  return html.replace(policyPlaceholder, contentSecurityPolicy(html));
}

/** How the site is built. */
export interface SiteOptions {
  /** Where a static host serves the site (`/repo/`), for `404.html`'s links; `/` by default (`referenceBasePath`). */
  base?: string;
}

/**
 * Builds `dist/`: the description with code samples and the link to the sandbox control API's page, `index.html` from
 * `redocly build-docs`, and the viewer; every address relative, so it works under any base path, but `404.html`'s two
 * links (served at any depth, it starts them at `base`).
 */
export async function buildSite(options: SiteOptions = {}): Promise<void> {
  rmSync(distDirectory, { recursive: true, force: true });
  mkdirSync(distDirectory, { recursive: true });
  const bundle = JSON.parse(readFileSync(bundlePath, "utf8")) as Bundle;
  const description = withTryItPlaceholders(
    withRelativeMarkdownLinks(
      withPlainServerDescriptions(withSearchableText(withSection(withSandboxControlLink(withWorkflows(withCodeSamples(bundle))), machineSection))),
    ),
  );
  const descriptionPath = join(distDirectory, "openapi.json");
  writeFileSync(descriptionPath, `${JSON.stringify(description, null, 2)}\n`);

  const indexPath = join(distDirectory, "index.html");
  await runRedocly(["build-docs", descriptionPath, "--output", indexPath, "--template", templatePath, "--openapi", JSON.stringify(redocOptions)]);

  const viewer = servedViewer();
  writeFileSync(join(distDirectory, viewerFileName), viewer.source);
  const tryItScripts = writeTryItScripts(distDirectory, bundle as unknown as FormBundle);
  const page = applyContentSecurityPolicy(withTryItScript(withRelativeAddresses(useLocalViewer(readFileSync(indexPath, "utf8"), viewer))));
  writeFileSync(indexPath, page);
  const routes = writeRedirectPages(distDirectory, page);
  // Static hosts (GitHub Pages, Netlify, Cloudflare Pages, Surge) answer unknown paths with 404.html.
  writeFileSync(join(distDirectory, "404.html"), applyContentSecurityPolicy(withReferenceBase(notFoundPage(routes), options.base ?? "/")));
  writeMachineReference(distDirectory, bundle, { json: bundlePath, yaml: yamlBundlePath });
  precompress([...["index.html", viewerFileName, "openapi.json"].map((name) => join(distDirectory, name)), ...tryItScripts]);
}
