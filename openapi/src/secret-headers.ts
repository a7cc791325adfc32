/**
 * The request and response headers that carry a secret, named once for every journal, recording and log
 * line of the toolkit: the header of each API-key security scheme of a description (`X-Token` for the
 * service; the sandbox's control API names the same), and HTTP's own credentials: `Authorization` and
 * `Proxy-Authorization` (RFC 9110, section 11.6), `Cookie` and `Set-Cookie` (RFC 6265; `Set-Cookie2`, RFC 2965).
 */

/** HTTP's own credential headers, in lower case (`Set-Cookie2`: RFC 2965's, obsolete but still a cookie). */
export const httpCredentialHeaders = ["authorization", "proxy-authorization", "cookie", "set-cookie", "set-cookie2"] as const;

interface SecurityScheme {
  readonly type?: unknown;
  readonly in?: unknown;
  readonly name?: unknown;
}

/** The headers of a description's API-key security schemes (`X-Token`), in lower case. */
export function apiKeyHeaders(document: object): string[] {
  const { components } = document as { components?: { securitySchemes?: Record<string, SecurityScheme> } };
  return Object.values(components?.securitySchemes ?? {}).flatMap((scheme) =>
    scheme.type === "apiKey" && scheme.in === "header" && typeof scheme.name === "string" ? [scheme.name.toLowerCase()] : [],
  );
}

/** Every header that carries a secret for these descriptions: their API-key headers and HTTP's credentials, in lower case. */
export function secretHeaders(...documents: readonly object[]): ReadonlySet<string> {
  return new Set([...documents.flatMap(apiKeyHeaders), ...httpCredentialHeaders]);
}
