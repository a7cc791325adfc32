/**
 * The sandbox's `/`: what it is, what data it serves and how to call it, for a person who opens its address in a
 * browser (HTML) or with `curl` (plain text). Answered without a token; it names the token header, never a
 * token the sandbox was started with, and never a file's path or a database's URL.
 */
import { Answer } from "../operations/answer.ts";
import type { SandboxOptions } from "../options.ts";

/** What the sandbox serves, in the words of its options: generated data (its seed and count), a `--fixture` file's, a `--data` file's or PostgreSQL's. */
export function servedData(options: Pick<SandboxOptions, "seed" | "conversations" | "state" | "fixture" | "data" | "databaseUrl">): string {
  if (options.databaseUrl !== undefined) return "the data kept in PostgreSQL (--database-url), shared by every replica";
  if (options.data !== undefined) return "the data kept in its --data file (SQLite), across restarts";
  if (typeof options.fixture === "string") return "the data of its --fixture file";
  if (options.fixture !== undefined) return "the data of a fixture";
  const state = options.state === "default" ? "" : `, state ${options.state}`;
  return `generated data (seed ${JSON.stringify(options.seed)}, ${options.conversations} conversations${state})`;
}

const htmlHeaders = Object.freeze(["content-type", "text/html; charset=utf-8", "cache-control", "no-store"]);
const textHeaders = Object.freeze(["content-type", "text/plain; charset=utf-8", "cache-control", "no-store"]);

/** Escapes text for HTML. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The index of a sandbox with these options: a function answering `/` as HTML when `accept` asks for it (a
 * browser), else as plain text (`curl`), with the base URL of the request filled in. The API reference is
 * linked where `referenceUrl` says (`pnpm start` gives the port it serves it on); without it, none is linked.
 */
export function indexPageOf(options: SandboxOptions): (requestUrl: string, accept: string | undefined) => Answer {
  const about = `The service's three operations with its rules over ${servedData(options)}, and a control API under /_sandbox/.`;
  const reference = options.referenceUrl;
  const controlReference = reference === undefined ? undefined : new URL("sandbox-control.html", reference).href;
  const lines = [
    "Bot Conversation sandbox",
    "",
    about,
    "Send the X-Token header with every request: sandbox-token, unless the sandbox was started with --token (or SANDBOX_TOKENS).",
    "",
    "  curl -H 'X-Token: sandbox-token' '<base>/api/v2/channels/conversations?pageSize=5'",
    "  curl -H 'X-Token: sandbox-token' '<base>/_sandbox/bots'",
    "",
    reference === undefined
      ? "The API reference is not served by the sandbox: pnpm start serves it beside it (--reference-url links it here)."
      : `The API reference: ${reference} (the control API: ${controlReference}).`,
  ];
  const referenceItem =
    reference === undefined
      ? "<li>The API reference: not served by the sandbox; <code>pnpm start</code> serves it beside it (<code>--reference-url</code> links it here)</li>"
      : `<li><a href="${escapeHtml(reference)}">The API reference</a> and <a href="${escapeHtml(controlReference!)}">the control API's</a></li>`;
  return (requestUrl, accept) => {
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
${referenceItem}
</ul>
</html>
`
      : `${text.join("\n")}\n`;
    return new Answer(200, body, html ? htmlHeaders : textHeaders);
  };
}
