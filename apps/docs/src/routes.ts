import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The in-site addresses a page links to (`href="/section/errors"`), without the root and files. */
export function linkedAddresses(html: string): string[] {
  const hrefs = [...html.matchAll(/href="(\/[^"#?]*)"/g)].map((match) => match[1] ?? "");
  return [...new Set(hrefs)].filter((href) => href !== "/" && !/\.\w+$/.test(href)).sort();
}

/** A page that sends a browser at `address` to the viewer's own form of it, `/#address`; no script needed. */
export function redirectPage(address: string): string {
  const target = `/#${address}`;
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
 * Writes `<address>/index.html` for every address the page links to, so a static host with no
 * fallback (not even `404.html`) answers `/section/errors` with 200 and the right target.
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
