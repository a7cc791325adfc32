import { afterEach, expect, test } from "vitest";
import { ApiError, createBotConversationClient } from "../src/index.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const prismValidation = {
  type: "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY",
  title: "Invalid request",
  status: 422,
  detail: "Your request is not valid and no HTTP validation response was found in the spec, so Prism is generating this error for you.",
  validation: [
    {
      location: ["query", "status"],
      severity: "Error",
      code: "enum",
      message: "Request query parameter status must be equal to one of the allowed values: Active, Closed, Operator",
    },
  ],
};

test.each([
  [
    "a validation entry (Prism)",
    422,
    prismValidation,
    ': "Request query parameter status must be equal to one of the allowed values: Active, Closed, Operator"',
  ],
  ["a problem+json detail", 404, { title: "Not Found", detail: "No bot 5f0c6d1e" }, ': "No bot 5f0c6d1e"'],
  ["a problem+json title alone", 400, { type: "about:blank", title: "Bad Request" }, ': "Bad Request"'],
  ["a message field", 401, { message: "Authorization failed. Check the X-Token header." }, ': "Authorization failed. Check the X-Token header."'],
  // Quoted as JSON, so a line break the server sent stays on the message's one line as \n.
  ["a long message, cut to 120 characters, its line break escaped", 500, { message: `line one\n${"x".repeat(200)}` }, `: "line one\\n${"x".repeat(109)}...`],
  ["a message that echoes the token, redacted", 401, { message: "token tok-SECRET-123 is invalid" }, ': "token [redacted] is invalid"'],
  ["a body with no known field", 500, { code: 17 }, ""],
  ["a text body", 502, "Bad Gateway", ""],
])("a failure status with %s puts a short reason in the message", async (_label, status, body, reason) => {
  server = await startServer((_request, response) =>
    typeof body === "string" ? response.writeHead(status, { "content-type": "text/plain" }).end(body) : sendJson(response, status, body),
  );
  const client = createBotConversationClient({ baseUrl: server.url, token: "tok-SECRET-123", maxRetries: 0 });
  const error = await client.searchConversations({ status: "closed" as never }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as Error).message).toBe(`GET /api/v2/channels/conversations answered ${status}${reason}`);
  expect((error as ApiError).body).toEqual(JSON.parse(JSON.stringify(body).replace("tok-SECRET-123", "[redacted]")));
});
