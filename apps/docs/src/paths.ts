import { fileURLToPath } from "node:url";

/** Root of the docs package. */
export const packageDirectory = fileURLToPath(new URL("..", import.meta.url));
/** Where the built site goes. */
export const distDirectory = fileURLToPath(new URL("../dist/", import.meta.url));
/** The code samples shown in the reference, one `.ts` and one `.sh` per operationId. */
export const samplesDirectory = fileURLToPath(new URL("../samples/", import.meta.url));
/** The Handlebars page template given to `redocly build-docs`. */
export const templatePath = fileURLToPath(new URL("../template.hbs", import.meta.url));
/** The bundled description built by `@bot-conversation/openapi`. */
export const bundlePath = fileURLToPath(import.meta.resolve("@bot-conversation/openapi/openapi.json"));
/** The same bundle as YAML. */
export const yamlBundlePath = fileURLToPath(import.meta.resolve("@bot-conversation/openapi/openapi.yaml"));
/** The repository's single Redocly configuration. */
export const redoclyConfigPath = fileURLToPath(new URL("../../../redocly.yaml", import.meta.url));
/** The Arazzo workflows beside the description (`openapi/workflows/`). */
export const workflowsPath = fileURLToPath(import.meta.resolve("@bot-conversation/openapi/workflows.arazzo.yaml"));
