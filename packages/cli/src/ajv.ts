import { parseDateTime } from "@bot-conversation/client";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type addFormats from "ajv-formats";

/**
 * Ajv as the CLI checks values with it (flags and MCP arguments alike): ajv-formats' formats, with
 * `date-time` replaced by the client's `parseDateTime`, the one date rule the client, the sandbox and
 * the kit apply (ajv-formats' own `date-time` accepts `+03`, a space for `T` and `23:59:60`, which the
 * client refuses before sending).
 */
export function withFormats(instance: Ajv2020, formats: typeof addFormats): Ajv2020 {
  formats.default(instance);
  instance.addFormat("date-time", { type: "string", validate: (text: string) => !Number.isNaN(parseDateTime(text)) });
  return instance;
}
