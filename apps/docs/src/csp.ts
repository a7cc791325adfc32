import { createHash } from "node:crypto";

/** `'sha256-…'` source expression for an inline script's exact text. */
function scriptHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The text of every inline `<script>` in a page. */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((match) => match[1] ?? "");
}

/**
 * Content-Security-Policy of the reference: everything from the site itself, scripts only the
 * viewer file and the page's own inline scripts (by hash). Styles allow inline because the viewer
 * (styled-components) injects its styles at run time. `connect-src` lets the "Try it" panel
 * (`try-it/`, files of the site) reach the local sandbox and mock, and nothing else.
 */
export function contentSecurityPolicy(html: string): string {
  const hashes = inlineScripts(html).map(scriptHash);
  return [
    "default-src 'none'",
    `script-src 'self' ${hashes.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self' http://127.0.0.1:* http://localhost:*",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** The placeholder in `template.hbs` that the policy replaces. */
export const policyPlaceholder = "__CONTENT_SECURITY_POLICY__";
