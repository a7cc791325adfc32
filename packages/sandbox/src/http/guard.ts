import type { SandboxOptions } from "../options.ts";
import { hostNameOf, originOf } from "../options.ts";

/**
 * Whether a host name is a loopback name: `localhost` and its subdomains (RFC 6761), `127.0.0.0/8`,
 * `::1`. A page of another site can reach these only through the user's own browser, and a DNS
 * name pointed at a loopback address (rebinding) still sends its own name in `Host`.
 */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    /^127(\.\d{1,3}){3}$/.test(name) ||
    name === "::1" ||
    name === "::ffff:127.0.0.1" ||
    name === "::ffff:7f00:1"
  );
}

/**
 * The control API's guard over HTTP: a request to `/_sandbox/*` whose `Host` is not a loopback name or
 * one of `allowHosts` is refused (DNS rebinding), and so is one whose `Origin` (a browser's) is not a
 * loopback origin or one of `allowOrigins` (another site's page). Returns why it is refused, or `undefined`.
 */
export function controlGuard(
  options: Pick<SandboxOptions, "allowOrigins" | "allowHosts">,
): (host: string | undefined, origin: string | undefined) => string | undefined {
  const hosts = new Set(options.allowHosts);
  const origins = new Set(options.allowOrigins);
  return (host, origin) => {
    const hostname = host === undefined ? undefined : hostNameOf(host);
    if (hostname === undefined || !(isLoopbackName(hostname) || hosts.has(hostname))) {
      return `The control API answers only a loopback Host (localhost, 127.0.0.1, [::1]) or a name given with --allow-host (allowHosts); got Host ${JSON.stringify(host ?? null)}.`;
    }
    if (origin === undefined) return undefined;
    const sent = originOf(origin);
    if (sent === undefined || !(isLoopbackName(new URL(sent).hostname) || origins.has(sent))) {
      return `The control API answers pages of loopback origins only, or of an origin given with --allow-origin (allowOrigins); got Origin ${JSON.stringify(origin)}.`;
    }
    return undefined;
  };
}
