import { fileURLToPath } from "node:url";

/** The bundled description every peer tool reads. */
export const bundlePath = fileURLToPath(import.meta.resolve("@bot-conversation/openapi/openapi.yaml"));
/** Where the generators write their output (rebuilt by `build`, not committed). */
export const generatedDirectory = fileURLToPath(new URL("../generated", import.meta.url));
