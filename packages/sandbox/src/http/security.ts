/**
 * Who may call a route, read from its operation's `security` in the service's or the control API's description
 * (compiled by `@bot-conversation/openapi`), checked once per request by one middleware, each token by the one
 * comparison (`tokenAccepted`). Each security scheme of the descriptions names the tokens it takes here: a
 * workspace's (`XToken`: the workspace the token picks becomes the request's, `c.get("workspace")`), the
 * administrator's (`AdminToken`), or the metrics' (`MetricsToken`, `MetricsBearer`: the administrator token when
 * the sandbox has one, else an accepted `--token`; our choice). A scheme the sandbox does not know stops the app
 * from being built, naming it.
 */
import type { SecurityRequirement, SecuritySchemeUse } from "@bot-conversation/openapi";
import type { Answer } from "../operations/answer.ts";
import { problemAnswer, tokenRefused } from "../operations/problem.ts";
import type { Handler, Middleware, RequestContext, SandboxHost, ServedWorkspace } from "./context.ts";
import { tokenAccepted } from "./token.ts";

/** What the token of a scheme is checked against. */
type Credential = "workspace" | "administrator" | "scrape";

/** The tokens each security scheme of the descriptions takes, by its name in `components.securitySchemes`. */
export const credentialOfScheme: Readonly<Record<string, Credential>> = {
  XToken: "workspace",
  AdminToken: "administrator",
  MetricsToken: "scrape",
  MetricsBearer: "scrape",
};

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case, RFC 6750), or `undefined`. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^bearer +(\S+) *$/i.exec(authorization ?? "")?.[1];
}

/** One scheme of a requirement, ready to check: how its token is read, and what it is compared with. */
interface SchemeCheck {
  readonly credential: Credential;
  readonly token: (c: RequestContext) => string | undefined;
}

function schemeCheck(use: SecuritySchemeUse, where: string): SchemeCheck {
  const credential = credentialOfScheme[use.scheme];
  if (credential === undefined)
    throw new Error(`${where}: the security scheme ${use.scheme} is not one the sandbox checks (${Object.keys(credentialOfScheme).join(", ")})`);
  if (use.type === "apiKey" && use.header !== undefined) {
    const name = use.header.toLowerCase();
    return { credential, token: (c) => c.req.header(name) };
  }
  if (use.type === "http") return { credential, token: (c) => bearerToken(c.req.header("authorization")) };
  throw new Error(`${where}: the security scheme ${use.scheme} (${use.type}) sends no header the sandbox reads`);
}

/**
 * The security middleware of a route whose operation has this requirement (`where` names it in an error), or
 * `undefined` when the requirement lets an anonymous request through (`security: []`, or an alternative `{}`).
 * A request is let through when one alternative's schemes all take their tokens; otherwise it is refused with the
 * answer of the requirement's first scheme: a workspace token's `401` (as the service answers), the administrator
 * token's or the metrics' (with `WWW-Authenticate: Bearer`).
 */
export function securityMiddleware(requirement: SecurityRequirement, host: SandboxHost, where: string): Middleware | undefined {
  if (requirement.length === 0 || requirement.some((alternative) => alternative.length === 0)) return undefined;
  const alternatives = requirement.map((alternative) => alternative.map((use) => schemeCheck(use, where)));
  const refused = refusalOf(alternatives[0]![0]!.credential, host);
  /** Whether a token is the administrator's (`undefined`: the sandbox has none). */
  const administrator = (token: string | undefined) => (host.adminToken === undefined ? undefined : tokenAccepted(token, [host.adminToken]));
  const scrape = (token: string | undefined) => tokenAccepted(token, host.adminToken === undefined ? host.main().context.options.tokens : [host.adminToken]);
  /** The workspace a workspace token picks: the default one for its `--token` tokens (no promise), another for its own, `undefined` for none. */
  const workspaceOf = (token: string | undefined): ServedWorkspace | undefined | Promise<ServedWorkspace | undefined> => {
    if (token === undefined || token === "") return undefined;
    const main = host.main();
    return tokenAccepted(token, main.context.options.tokens) ? main : host.createdWorkspaceOf(token);
  };
  // The service's operations and a workspace's control routes take one workspace token: the common case, checked without a loop.
  const [only] = alternatives;
  if (alternatives.length === 1 && only!.length === 1 && only![0]!.credential === "workspace") {
    const readToken = only![0]!.token;
    return (c, next) => {
      const picked = workspaceOf(readToken(c));
      return picked instanceof Promise ? picked.then((workspace) => admitted(c, next, workspace, refused)) : admitted(c, next, picked, refused);
    };
  }
  return async (c, next) => {
    for (const alternative of alternatives) {
      let workspace: ServedWorkspace | undefined;
      let accepted = true;
      for (const { credential, token: readToken } of alternative) {
        const token = readToken(c);
        if (credential === "workspace") {
          workspace = await workspaceOf(token);
          accepted &&= workspace !== undefined;
        } else accepted &&= credential === "administrator" ? administrator(token) === true : scrape(token);
      }
      if (!accepted) continue;
      if (workspace !== undefined) c.set("workspace", workspace);
      return next(c);
    }
    return refused();
  };
}

/** The rest of the route for a request whose token picked a workspace (now `c.get("workspace")`), or the refusal. */
function admitted(c: RequestContext, next: Handler, workspace: ServedWorkspace | undefined, refused: () => Answer): Answer | Promise<Answer> {
  if (workspace === undefined) return refused();
  c.set("workspace", workspace);
  return next(c);
}

/** The answer to a request whose credential a route refuses, by what the route's first scheme takes. */
function refusalOf(credential: Credential, host: SandboxHost): () => Answer {
  const mediaType = () => host.main().context.options.errorMediaType;
  if (credential === "workspace") return () => tokenRefused(mediaType());
  if (credential === "administrator")
    return () =>
      problemAnswer(
        mediaType(),
        401,
        host.adminToken === undefined
          ? "Workspaces are managed with the administrator token, and this sandbox has none (start it with --admin-token)."
          : "Authorization failed: workspaces are managed with the administrator token (--admin-token). Check the X-Token header.",
      );
  return () =>
    problemAnswer(
      mediaType(),
      401,
      `Authorization failed: the metrics answer ${host.adminToken === undefined ? "an accepted token (--token)" : "the administrator token (--admin-token)"}. Check the X-Token header, or Authorization: Bearer <token>.`,
      undefined,
      { "www-authenticate": "Bearer" },
    );
}
