/**
 * The sandbox's `/`: what it is and how to call it, for a person who opens its address in a browser
 * (HTML) or with `curl` (plain text). Answered without a token; it names the token header, never a
 * token the sandbox was started with.
 */

/** Where the API reference is when `pnpm start` serves it beside the sandbox (its default docs port). */
const referenceUrl = "http://127.0.0.1:8080/";

/** The index's lines: a title, then what to do. */
const lines = [
  "Bot Conversation sandbox",
  "",
  "The service's three operations with its rules over generated data, and a control API under /_sandbox/.",
  "Send the X-Token header with every request: sandbox-token, unless the sandbox was started with --token (or SANDBOX_TOKENS).",
  "",
  "  curl -H 'X-Token: sandbox-token' '<base>/api/v2/channels/conversations?pageSize=5'",
  "  curl -H 'X-Token: sandbox-token' '<base>/_sandbox/bots'",
  "",
  `The API reference: ${referenceUrl} when pnpm start serves it beside the sandbox (the control API: ${referenceUrl}sandbox-control.html).`,
];

/** Escapes text for HTML. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The index as HTML when `accept` asks for it (a browser), else as plain text (`curl`), with the base URL of the request filled in. */
export function indexPage(requestUrl: string, accept: string | undefined, method: string): Response {
  const base = new URL(requestUrl).origin;
  const text = lines.map((line) => line.replaceAll("<base>", base));
  const html = accept?.includes("text/html") === true;
  const body = html
    ? `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>${escapeHtml(text[0]!)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:.75rem;overflow-x:auto}</style>
<h1>${escapeHtml(text[0]!)}</h1>
<p>${escapeHtml(text[2]!)}</p>
<p>Send the <code>X-Token</code> header with every request: <code>sandbox-token</code>, unless the sandbox was started with <code>--token</code> (or <code>SANDBOX_TOKENS</code>). A browser does not send it, so the links below answer <code>401</code> here; use <code>curl</code> or a client.</p>
<pre>${escapeHtml(text[5]!)}
${escapeHtml(text[6]!)}</pre>
<ul>
<li><a href="/_sandbox/bots">/_sandbox/bots</a>: the bots and their triggers (with the token)</li>
<li><a href="/api/v2/channels/conversations?pageSize=5">/api/v2/channels/conversations</a>: a search (with the token)</li>
<li><a href="${referenceUrl}">The API reference</a> and <a href="${referenceUrl}sandbox-control.html">the control API's</a>, when <code>pnpm start</code> serves them beside the sandbox</li>
</ul>
</html>
`
    : `${text.join("\n")}\n`;
  return new Response(method === "HEAD" ? null : body, {
    headers: { "content-type": html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
