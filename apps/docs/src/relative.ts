/**
 * Every address the site's pages hold is relative, so one build works at the root of a host and
 * under any base path (a GitHub Pages project site serves it under `/<repo>/`). The viewer routes by
 * hash, so a route of the reference is `#/section/errors` on the page that shows it, and a file of
 * the site is named relative to the page (`redoc.standalone.js`, `sandbox-control.html`).
 */

/** An address from the site's root (`/section/errors`, `/sandbox-control.html`), as written by the viewer's prerender or the description. */
const rootAddress = /^\/(?!\/)([^"#?]*)/;

/** The relative form of an address from the site's root: a route becomes the viewer's hash (`#/section/errors`), a file its relative name. */
export function relativeAddress(address: string): string {
  const match = rootAddress.exec(address);
  if (!match) return address;
  const path = match[1] ?? "";
  const rest = address.slice(match[0].length);
  return /\.\w+$/.test(path) ? `${path}${rest}` : `#/${path}`;
}

/** Rewrites a built page's own links and its viewer import to relative addresses; fails if one from the root is left. */
export function withRelativeAddresses(html: string): string {
  const page = html
    .replace(/\b(href|src)="(\/(?!\/)[^"]*)"/g, (_match, attribute: string, address: string) => `${attribute}="${relativeAddress(address)}"`)
    .replace(/\bfrom "\/(?!\/)([^"]+)"/g, 'from "./$1"');
  const left = /\b(?:href|src)="\/(?!\/)[^"]*"|\bfrom "\/[^"]*"/.exec(page);
  if (left) throw new Error(`the page still names an address from the host's root: ${left[0]}`);
  return page;
}

/** Returns a copy of the description whose Markdown links to the site's own addresses (`[text](/conversation-summary)`) are relative. */
export function withRelativeMarkdownLinks<T>(bundle: T): T {
  // The links sit inside JSON strings: no quote or backslash can be part of the address.
  return JSON.parse(JSON.stringify(bundle).replace(/\]\((\/(?!\/)[^)\s"\\]*)\)/g, (_match, address: string) => `](${relativeAddress(address)})`)) as T;
}
