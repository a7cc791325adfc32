/** A fetch for the client's `fetch` option that tells when the first response (its status line) has arrived. */
export interface NotedFetch {
  /** The global fetch, noting the first response it resolves with. */
  readonly fetch: (request: Request, init?: RequestInit) => Promise<Response>;
  /** Resolves with the first response's status once the client holds it; its body may still be unread. */
  readonly responded: Promise<number>;
}

/**
 * Wraps the global fetch so a test can wait for the moment the client got a status line, instead of
 * a fixed wait that a loaded machine can outlast.
 */
export function noteResponse(): NotedFetch {
  let arrived!: (status: number) => void;
  const responded = new Promise<number>((resolve) => (arrived = resolve));
  return {
    responded,
    async fetch(request, init) {
      const response = await globalThis.fetch(request, init);
      arrived(response.status);
      return response;
    },
  };
}
