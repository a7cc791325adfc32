import { createServer } from "node:net";

/** A port the OS reports free right now on 127.0.0.1 (Prism needs a concrete port, so it cannot bind port 0 itself). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}
