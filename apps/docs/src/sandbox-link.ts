import { withSection } from "./sections.ts";

/** The sandbox control API's page of the reference, beside `index.html`. */
export const sandboxControlPage = "sandbox-control.html";

/** Heading of the main reference's section that leads to that page (a sidebar entry, `/section/sandbox-control-api`). */
export const sandboxSectionHeading = "Sandbox control API";

/**
 * The section added to the main reference: the sandbox is this toolkit's, not the service's, so
 * the description (the service's) does not mention it and only the reference site carries the link.
 */
export const sandboxSection = `# ${sandboxSectionHeading}

This toolkit's sandbox, not part of the service: \`pnpm start\` runs it beside the mock, at
\`http://127.0.0.1:4011\`. It answers the three operations above by the service's rules over data
it holds in memory (kept in a SQLite file with \`--data\`), and adds routes of its own under \`/_sandbox/\` to regenerate or replace its
data, export a conversation, list the external events it received, and inject faults.
Those routes have a reference of their own: [the sandbox control API](${sandboxControlPage}).
`;

/** Returns a copy of the bundled description whose `info.description` ends with the sandbox section. */
export function withSandboxControlLink<T extends { info: { description?: string } }>(bundle: T): T {
  return withSection(bundle, sandboxSection);
}
