/**
 * The page of the reference for machines about recording the real service (`bot-conversation record`):
 * how an agent or a test writer turns real traffic into a report and a sandbox that replays it.
 */

/** `tools/record.md`: the recorder in Markdown. */
export const recordingPage = `# Recording the real service: \`bot-conversation record\`

\`bot-conversation record --upstream <url> --out <dir>\` (package \`@bot-conversation/cli\`) is a transparent
proxy in front of the real service: point a client's base URL at the URL it prints (\`Recorder ready at <url>\`);
the client keeps its own \`X-Token\`. Each request is forwarded as sent and answered with the upstream's
status, headers and body, byte for byte; a line per exchange (operation, status, verdict) goes to stderr.
Ctrl-C or SIGTERM writes the files and exits 0; a second signal while they are written is absorbed.

Options: \`--port\` (0 takes any free port), \`--host\`, \`--salt <text>\` (key of the pseudonyms), \`--ca-file <path>\`
(a PEM file of CAs for an HTTPS upstream), \`--keep-texts\` (texts and names as sent), \`--personal <pointer>\`
(another field of a conversation summary to pseudonymise), \`--timeout <ms>\`, \`--operation <operationId>\`
(record only those, repeatable), \`--quiet\` (no line per exchange), \`--append\` (continue the recording the
folder holds; a folder that holds one is refused without it), \`--rebuild\` (write every file again from the
journal), \`--from-har <file>\` (record a HAR that a browser or Playwright captured, no upstream). Relative
paths mean the folder the command was run in, through \`pnpm\` too.

What \`<dir>\` holds:

- \`exchanges.ndjson\`: the journal, one line per completed exchange, appended as it completes; a recorder
  killed at any moment keeps every exchange it answered. Every other file is derived from it and replaced
  atomically.
- \`report.json\`: \`{ "operations": { "<operationId>": { "<status>": { "exchanges": n, "invalid": n } } },
  "problems": [{ "operationId", "status", "pointer", "message", "count" }], "findings": [ … ],
  "notRecorded": { "triggerLists": [ … ] } }\`; a pointer is a JSON pointer with array indexes as \`*\`
  (\`/items/*/status\`), naming a missing property. Fires are judged against the recorded trigger list
  (\`/body/externalEventPayload/<code>\`). Points the service leaves open and undocumented fields are
  \`findings\`, never invalid; a status the description documents is never invalid.
- \`report.md\`: the same for a person, usable as a GitHub job summary.
- \`fixture.json\`: a sandbox fixture of every bot, trigger and conversation the valid exchanges showed; serve
  it with \`bot-conversation-sandbox --fixture <dir>/fixture.json --exchanges <dir>/exchanges.ndjson\` (a
  recorded request answered exactly as recorded, every other by the rules) or \`createSandbox({ fixture })\`.
- \`exchanges.har\`: the journal as HAR 1.2, which Playwright's \`routeFromHAR\` serves.
- \`switches.json\`: the open points the traffic showed, as the sandbox's switches; \`open-points.json\`: the
  exchange that showed each.

No token, cookie or \`Authorization\` value is ever written: a secret is removed where it stands (a header, a
cookie, a query parameter, a body field). End users' texts and names are replaced by deterministic
pseudonyms (HMAC-SHA-256 with \`--salt\`); identifiers are kept. The same traffic with the same salt gives
the same files (but for the durations in the journal and the HAR).
`;
