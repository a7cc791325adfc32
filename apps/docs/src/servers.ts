/**
 * Returns a copy of the bundled description whose server descriptions are plain text: the viewer's
 * Servers panel prints them as they are, so the description's Markdown code spans (`pnpm start`)
 * would show their backticks.
 */
export function withPlainServerDescriptions<T extends { servers?: { description?: string }[] }>(bundle: T): T {
  const copy = structuredClone(bundle);
  for (const server of copy.servers ?? []) if (server.description) server.description = server.description.replaceAll("`", "");
  return copy;
}
