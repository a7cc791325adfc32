/**
 * Before the kit says the user's token is wrong: when the probe's search with the token is a 401, a
 * few requests find out what the server refuses. A protocol detail HTTP leaves free (the `Accept`
 * header, a `User-Agent`), one operation only (the trigger list takes the token), everything (a 401
 * for a path that does not exist and for no token at all: the address or the server's set-up), or,
 * when none of these, the token.
 */
import type { Description } from "./description.ts";
import type { ResolvedOptions } from "./options.ts";

/** One request of the diagnosis: what differs from the probe, and the request. */
interface Variant {
  /** What it changes, in words, after "the same search ...". */
  readonly what: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly method?: string;
}

/** The status of one request, or undefined when none came (a time-out, a reset). */
async function statusOf(options: ResolvedOptions, variant: Variant): Promise<number | undefined> {
  try {
    const response = await options.fetch(new URL(options.baseUrl.replace(/\/+$/, "") + variant.path), {
      method: variant.method ?? "GET",
      headers: { ...options.headers, ...variant.headers },
      redirect: "manual",
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
    });
    // Only the status is read: the body is let go unread.
    await response.body?.cancel().catch(() => undefined);
    return response.status;
  } catch {
    return undefined;
  }
}

/**
 * Why the probe's search with the token got 401, in a sentence for the error the run stops with: the
 * detail the server refuses, the operation that refuses the token, a server that refuses everything,
 * or the token. At most six requests.
 */
export async function blameForRefusal(options: ResolvedOptions, description: Description): Promise<string> {
  const search = description.operations.get("searchConversations")!.path;
  const token = { "x-token": options.token };
  const server = `The server at ${options.baseUrl}`;
  const protocol: Variant[] = [
    { what: "with Accept: */* instead of Accept: application/json", path: search, headers: { ...token, accept: "*/*" } },
    { what: "with no Accept header", path: search, headers: token },
    { what: "with a User-Agent of curl's", path: search, headers: { ...token, accept: "application/json", "user-agent": "curl/8.11.1" } },
  ];
  for (const variant of protocol) {
    const status = await statusOf(options, variant);
    if (status !== undefined && status !== 401)
      return `${server} refused the search with the token (401) but answered ${status} to the same search ${variant.what}: it refuses a detail of the request that HTTP leaves to the client (RFC 9110), not the token. Tell the server's team; the token is not at fault.`;
  }
  if (options.agentStageId) {
    const triggers = description.operations.get("listExternalEventTriggers")!.path.replace("{agentStageId}", encodeURIComponent(options.agentStageId));
    const status = await statusOf(options, { what: "", path: triggers, headers: { ...token, accept: "application/json" } });
    if (status !== undefined && status !== 401)
      return `${server} refused the search with the token (401) but answered ${status} to the trigger list of ${options.agentStageId} with the same token: the token is accepted, and the server refuses it on the search only (every operation needs the same X-Token). Tell the server's team; the token is not at fault.`;
  }
  // A request that never carries a credential (a CORS preflight has none, by the Fetch standard) and a path that does not exist:
  // a server that answers both with 401 refuses everything, whatever the token.
  const preflight = await statusOf(options, {
    what: "",
    path: search,
    method: "OPTIONS",
    headers: { origin: "https://conformance.invalid", "access-control-request-method": "GET", "access-control-request-headers": "x-token" },
  });
  const nowhere = await statusOf(options, { what: "", path: "/conformance-no-such-path", headers: { accept: "application/json" } });
  if (preflight === 401 && nowhere === 401)
    return `${server} answers 401 to everything, a CORS preflight (which never carries a token) and a path that does not exist too: check --base-url (a gateway in front of the service may want its own credentials, see --header), then --token.`;
  return `${server} refused the token (401 on searchConversations, with every Accept and User-Agent tried${options.agentStageId ? ", and on the trigger list" : ""}); check --token.`;
}
