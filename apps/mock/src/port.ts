import { createServer } from "node:net";

/** A port the OS reports free right now on 127.0.0.1; another process may take it before it is used, so prefer port 0 where the server reports the port it bound. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}
