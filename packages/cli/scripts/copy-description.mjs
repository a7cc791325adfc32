// Copies the bundled OpenAPI description into the package (description/openapi.json): the MCP
// server's input schemas and the CLI's flag help come from it at run time, and the description
// package itself is not published.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";

const source = createRequire(import.meta.url).resolve("@bot-conversation/openapi/openapi.json");
mkdirSync(new URL("../description/", import.meta.url), { recursive: true });
copyFileSync(source, new URL("../description/openapi.json", import.meta.url));
