import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The viewer's routes a page links to (`href="#/section/errors"` gives `/section/errors`), without the root. */
export function linkedAddresses(html: string): string[] {
  const routes = [...html.matchAll(/href="#(\/[^"#?]*)"/g)].map((match) => match[1] ?? "");
  return [...new Set(routes)].filter((route) => route !== "/").sort();
}

/** The way from the page at `address` (served as `<address>/index.html`) back to the site's root: `../../` for `/section/errors`. */
export function pathToRoot(address: string): string {
  return "../".repeat(address.split("/").filter((segment) => segment !== "").length);
}

/**
 * A page that sends a browser at `address` to the viewer's own form of it, relative to where it is
 * served (`../../#/section/errors`), so it works under any base path; no script needed.
 */
export function redirectPage(address: string): string {
  const target = `${pathToRoot(address)}#${address}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta http-equiv="refresh" content="0; url=${target}" />
  <link rel="icon" href="data:," />
  <title>Bot Conversation Service API reference</title>
</head>
<body>
  <p><a href="${target}">Open ${address} in the API reference</a></p>
</body>
</html>
`;
}

/**
 * Writes `<address>/index.html` for every route the page links to, so the path form of an address
 * (`/section/errors`, the form the viewer used to show) loads its target on any static host, under
 * any base path. Hosts answer the folder's address with a redirect to its `/` form, which the
 * relative target counts from.
 */
export function writeRedirectPages(distDirectory: string, html: string): string[] {
  const addresses = linkedAddresses(html);
  for (const address of addresses) {
    const directory = join(distDirectory, address);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, "index.html"), redirectPage(address));
  }
  return addresses;
}
