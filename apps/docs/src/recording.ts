/**
 * The page of the reference for machines about recording the real service (`bot-conversation record`):
 * how an agent or a test writer turns real traffic into a report and a sandbox that replays it.
 */

/** `tools/record.md`: the recorder in Markdown. */
export const recordingPage = `# Recording the real service: \`bot-conversation record\`

\`bot-conversation record --upstream <url> --out <dir>\` (package \`@bot-conversation/cli\`) is a transparent
proxy in front of the real service: point a client's base URL at the URL it prints (\`Recorder ready at <url>\`);
the client keeps its own \`X-Token\`. Each request is forwarded as sent and answered with the upstream's
status, headers and body, byte for byte. Ctrl-C or SIGTERM writes the files and exits 0.

Options: \`--port\` (0 takes any free port), \`--host\`, \`--salt <text>\` (key of the pseudonyms), \`--ca-file <path>\`
(a PEM file of CAs for an HTTPS upstream), \`--keep-texts\` (texts and names as sent), \`--personal <pointer>\`
(another field of a conversation summary to pseudonymise), \`--timeout <ms>\`.

What \`<dir>\` holds:

- \`report.json\`: \`{ "operations": { "<operationId>": { "<status>": { "exchanges": n, "invalid": n } } },
  "problems": [{ "operationId", "status", "pointer", "message", "count" }] }\`; a pointer is a JSON pointer
  with array indexes as \`*\` (\`/items/*/status\`), naming a missing property. Points the service leaves open
  and undocumented fields are findings (\`finding: ...\`), never invalid.
- \`report.md\`: the same for a person, usable as a GitHub job summary.
- \`fixture.json\`: a sandbox fixture of every bot, trigger and conversation seen; serve it with
  \`bot-conversation-sandbox --fixture <dir>/fixture.json\` or \`createSandbox({ fixture })\`.
- \`switches.json\`: the open points the traffic showed, as the sandbox's switches; \`open-points.json\`: the
  exchange that showed each.

No token, cookie or \`Authorization\` value is ever written. End users' texts and names are replaced by
deterministic pseudonyms (HMAC-SHA-256 with \`--salt\`); identifiers are kept. The same traffic with the
same salt gives the same files.
`;
