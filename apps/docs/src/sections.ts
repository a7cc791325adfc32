/** Returns a copy of the bundled description whose `info.description` ends with a section of the reference site's own (Markdown, `#` heading). */
export function withSection<T extends { info: { description?: string } }>(bundle: T, section: string): T {
  const copy = structuredClone(bundle);
  copy.info.description = `${(copy.info.description ?? "").trimEnd()}\n\n${section}`;
  return copy;
}
