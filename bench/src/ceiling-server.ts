/**
 * The ceiling of the sandbox benchmark: plain `node:http` answering the bytes the sandbox answers for
 * the same search, with nothing else to do. `node ceiling-server.ts <body file>` prints its port.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const body = readFileSync(process.argv[2]!);
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": body.byteLength }).end(body);
});
server.listen(0, "127.0.0.1", () => console.log(`port ${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
