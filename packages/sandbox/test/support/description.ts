import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { readDescription } from "@bot-conversation/openapi";
import { documentValidator } from "@bot-conversation/openapi/ajv";

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: object }>;
}
interface OperationObject {
  operationId: string;
  responses: Record<string, ResponseObject>;
}
type Document = { paths: Record<string, Record<string, OperationObject>> };

const require = createRequire(import.meta.url);
const read = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Document;

/** The service description (`@bot-conversation/openapi`) and the control API's, as bundled. */
export const service = read(require.resolve("@bot-conversation/openapi/openapi.json"));
export const control = read(new URL("../../src/generated/sandbox-control.json", import.meta.url).pathname);

const documents = [service, control].map((document) => ({
  document,
  tools: { resolve: readDescription(document).resolveNode, problemsOf: documentValidator(document).problemsOf },
}));

/** The service description's example value by name (`components.examples`). */
export function example<T>(name: string): T {
  return (service as unknown as { components: { examples: Record<string, { value: T }> } }).components.examples[name]!.value;
}

/**
 * Everything in a response the description does not allow, for the operation: an undocumented
 * status (a `4XX` range counts), a content type other than the documented one, or a body that is
 * not valid against the documented schema. Empty when the response conforms.
 */
export async function responseProblems(operationId: string, response: Response): Promise<string[]> {
  const found = documents.flatMap(({ document, tools }) =>
    Object.values(document.paths).flatMap((item) =>
      Object.values(item)
        .filter((operation) => operation.operationId === operationId)
        .map((operation) => ({ operation, tools })),
    ),
  )[0];
  if (!found) throw new Error(`No operation ${operationId}`);
  const { operation, tools } = found;
  const status = String(response.status);
  const declared = operation.responses[status] ?? operation.responses[`${status[0]}XX`];
  const text = await response.clone().text();
  if (!declared) return [`status ${status} is not documented for ${operationId}`];
  const content = tools.resolve(declared).content;
  if (!content) return text === "" ? [] : [`status ${status} is documented without a body; got ${JSON.stringify(text.slice(0, 80))}`];
  const mediaType = response.headers.get("content-type")?.split(";")[0]?.trim() ?? "none";
  const media = content[mediaType];
  if (!media) return [`content type ${mediaType} is not documented for ${operationId} ${status} (documented: ${Object.keys(content).join(", ")})`];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`the body is not JSON: ${JSON.stringify(text.slice(0, 80))}`];
  }
  return media.schema ? tools.problemsOf(media.schema as Record<string, unknown>, body) : [];
}

/** `responseProblems` of a schema alone: Ajv's messages for a value against a schema of the service description. */
export function schemaProblems(schemaName: string, value: unknown): string[] {
  return documents[0]!.tools.problemsOf({ $ref: `#/components/schemas/${schemaName}` }, value);
}
