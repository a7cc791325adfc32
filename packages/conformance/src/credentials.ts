/**
 * Every way a request carries (or fails to carry) the token: the right one, and the probes of the
 * `credential-near-misses` and `credential-channels` families (declared here, named by `ignored_auth`'s entry).
 * One table: the transport sends from it, the curl reproductions write it from `$BOT_CONVERSATION_TOKEN`
 * (never the value), the failures name it in words, and the auth phase sends each entry.
 *
 * A near miss is another string than the token once HTTP has read it: leading and trailing white space
 * is no near miss (a field value's own white space is not part of it, RFC 9110 §5.5), and neither is a
 * lower-case header name (`x-token`: field names ignore case, RFC 9110 §5.1): the kit sends every
 * header name in lower case, and the server must take the token that way.
 */
import type { ProbeFamily } from "./checks/family.ts";

/** The `credential-near-misses` probe family, judged on its own tagged probes. */
export const credentialNearMissesFamily = {
  name: "credential-near-misses",
  probes:
    "No X-Token, an empty one, a wrong one, and every way to be almost right: the token cut by its last character, with a character before or after it, in another letter case, with a space inside, doubled, quoted, in a list with a wrong one, behind `Bearer `; on every operation, and on a later page of a filtered search. A lower-case header name is no near miss: HTTP header names ignore case.",
  rules: ["token-on-every-operation", "auth-header", "auth-401", "errors-triggers-401", "errors-fire-401"],
  tagged: true,
} as const satisfies ProbeFamily;

/** The `credential-channels` probe family, judged on its own tagged probes. */
export const credentialChannelsFamily = {
  name: "credential-channels",
  probes:
    "The right token on every other channel, without X-Token: the query string (`X-Token`, `token`, `api_key`), `Authorization: Bearer`, `Authorization` bare, a cookie, and other header names (`X-Api-Key`, `X-Auth-Token`, `Token`).",
  rules: ["auth-only-method", "errors-triggers-401", "errors-fire-401"],
  tagged: true,
} as const satisfies ProbeFamily;

/** The shell expression of the token in a curl line: the variable, expanded by the shell. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion for bash, not a template
const shellToken = "${BOT_CONVERSATION_TOKEN}";

/** One way of sending a credential. */
export interface Credential {
  /** The family it belongs to; none for the right token. */
  readonly family?: typeof credentialNearMissesFamily | typeof credentialChannelsFamily;
  /** The request in words, after "a request ..." (`with a wrong X-Token`). */
  readonly what: string;
  /** The `X-Token` value it sends, from the token; absent: no `X-Token`. */
  readonly xToken?: (token: string) => string;
  /** The same value written for a POSIX shell from `$BOT_CONVERSATION_TOKEN`, inside double quotes. */
  readonly xTokenShell?: string;
  /** Another header that carries the token instead: its name, value and shell form. */
  readonly header?: { readonly name: string; readonly value: (token: string) => string; readonly shell: string };
  /** A query parameter that carries the token instead. */
  readonly query?: string;
}

const swapCase = (token: string): string =>
  [...token].map((character) => (character === character.toUpperCase() ? character.toLowerCase() : character.toUpperCase())).join("");

/** The token sent as a wrong one: never a real token, so it is safe to print. */
export const wrongToken = "conformance-wrong-token";

/** Every credential, by name. */
export const credentials = {
  token: { what: "with the token", xToken: (token) => token, xTokenShell: "$BOT_CONVERSATION_TOKEN" },
  none: { family: credentialNearMissesFamily, what: "without X-Token" },
  wrong: { family: credentialNearMissesFamily, what: "with a wrong X-Token", xToken: () => wrongToken, xTokenShell: wrongToken },
  empty: { family: credentialNearMissesFamily, what: "with an empty X-Token", xToken: () => "", xTokenShell: "" },
  case: {
    family: credentialNearMissesFamily,
    what: "with the token in another letter case",
    xToken: swapCase,
    xTokenShell: `$(printf %s "$BOT_CONVERSATION_TOKEN" | tr 'a-zA-Z' 'A-Za-z')`,
  },
  spaced: {
    family: credentialNearMissesFamily,
    what: "with a space inside the token",
    xToken: (token) => `${token.slice(0, 1)} ${token.slice(1)}`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion for bash, not a template
    xTokenShell: "${BOT_CONVERSATION_TOKEN:0:1} ${BOT_CONVERSATION_TOKEN:1}",
  },
  cut: {
    family: credentialNearMissesFamily,
    what: "with the token cut by its last character",
    xToken: (token) => token.slice(0, -1),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion for bash, not a template
    xTokenShell: "${BOT_CONVERSATION_TOKEN%?}",
  },
  extended: { family: credentialNearMissesFamily, what: "with a character after the token", xToken: (token) => `${token}0`, xTokenShell: `${shellToken}0` },
  prefixed: { family: credentialNearMissesFamily, what: "with a character before the token", xToken: (token) => `0${token}`, xTokenShell: `0${shellToken}` },
  doubled: {
    family: credentialNearMissesFamily,
    what: "with the token twice",
    xToken: (token) => `${token}${token}`,
    xTokenShell: `${shellToken}${shellToken}`,
  },
  quoted: { family: credentialNearMissesFamily, what: "with the token in double quotes", xToken: (token) => `"${token}"`, xTokenShell: `\\"${shellToken}\\"` },
  listed: {
    family: credentialNearMissesFamily,
    what: "with the token and a wrong one as a list",
    xToken: (token) => `${token}, ${wrongToken}`,
    xTokenShell: `${shellToken}, ${wrongToken}`,
  },
  scheme: {
    family: credentialNearMissesFamily,
    what: "with the token behind Bearer in X-Token",
    xToken: (token) => `Bearer ${token}`,
    xTokenShell: `Bearer ${shellToken}`,
  },
  query: { family: credentialChannelsFamily, what: "with the token in the query string (X-Token) instead of the X-Token header", query: "X-Token" },
  queryToken: { family: credentialChannelsFamily, what: "with the token in the query string (token) instead of the X-Token header", query: "token" },
  queryApiKey: { family: credentialChannelsFamily, what: "with the token in the query string (api_key) instead of the X-Token header", query: "api_key" },
  bearer: {
    family: credentialChannelsFamily,
    what: "with the token as Authorization: Bearer instead of X-Token",
    header: { name: "authorization", value: (token) => `Bearer ${token}`, shell: `Bearer ${shellToken}` },
  },
  authorization: {
    family: credentialChannelsFamily,
    what: "with the token as Authorization instead of X-Token",
    header: { name: "authorization", value: (token) => token, shell: shellToken },
  },
  cookie: {
    family: credentialChannelsFamily,
    what: "with the token in a cookie (X-Token) instead of the header",
    header: { name: "cookie", value: (token) => `X-Token=${token}`, shell: `X-Token=${shellToken}` },
  },
  apiKey: {
    family: credentialChannelsFamily,
    what: "with the token as X-Api-Key instead of X-Token",
    header: { name: "x-api-key", value: (token) => token, shell: shellToken },
  },
  authToken: {
    family: credentialChannelsFamily,
    what: "with the token as X-Auth-Token instead of X-Token",
    header: { name: "x-auth-token", value: (token) => token, shell: shellToken },
  },
  tokenHeader: {
    family: credentialChannelsFamily,
    what: "with the token as Token instead of X-Token",
    header: { name: "token", value: (token) => token, shell: shellToken },
  },
} as const satisfies Record<string, Credential>;

/** How a request authenticates: a name of the credential table. */
export type Authentication = keyof typeof credentials;

/** The credential of a name. */
export const credentialOf = (authentication: Authentication): Credential => credentials[authentication];

/** The `X-Token` an authentication sends, or undefined for none. */
export function tokenFor(authentication: Authentication, token: string): string | undefined {
  return credentialOf(authentication).xToken?.(token);
}

/** The headers a request with this authentication carries for the token (`X-Token`, or the other channel). */
export function credentialHeaders(authentication: Authentication, token: string): Array<[string, string]> {
  const credential = credentialOf(authentication);
  const xToken = credential.xToken?.(token);
  return [
    ...(xToken === undefined ? [] : [["x-token", xToken] as [string, string]]),
    ...(credential.header ? [[credential.header.name, credential.header.value(token)] as [string, string]] : []),
  ];
}

/**
 * The bad credentials of a token: every entry of the two families whose value differs from the token
 * as HTTP reads it (a token without letters has no other letter case; one of a character no inner space).
 */
export function badCredentials(token: string): Authentication[] {
  return (Object.keys(credentials) as Authentication[]).filter((name) => {
    if (name === "token") return false;
    const sent = tokenFor(name, token);
    return sent === undefined || sent.trim() !== token;
  });
}

/** The token and every value derived from it that a bad credential sends without the token in it (another case, a space inside, cut): as secret as the token, redacted wherever a server echoes them. */
export function tokenForms(token: string): string[] {
  const derived = (Object.keys(credentials) as Authentication[]).flatMap((name) => credentialHeaders(name, token).map(([, value]) => value));
  return [token, ...new Set(derived.filter((value) => value.length > 1 && value !== wrongToken && !value.includes(token) && !value.startsWith(wrongToken)))];
}
