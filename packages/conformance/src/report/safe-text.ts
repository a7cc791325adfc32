import { sanitizeText } from "@bot-conversation/client/text";

/**
 * Text of several lines made safe to show: each line through the toolkit's one sanitizer
 * (`sanitizeText`: controls, DEL, line separators and bidi controls as visible escapes), the line
 * breaks we wrote kept. Every report a person reads (human, HTML, JUnit, GitHub) passes through it.
 */
export const sanitizeLines = (text: string): string => text.split("\n").map(sanitizeText).join("\n");

/**
 * `sanitizeLines`, and no line can start a GitHub Actions workflow command: a line whose text (after
 * white space) begins with `::` has its first colon written `\x3a`, and `##[` (the older command form)
 * is written `#\x23[`. Only the kit's own annotations, written after the report, start with `::`.
 */
export const safeLogText = (text: string): string =>
  text
    .split("\n")
    .map((line) =>
      sanitizeText(line)
        .replace(/^(\s*):(?=:)/, "$1\\x3a")
        .replaceAll("##[", "#\\x23["),
    )
    .join("\n");
