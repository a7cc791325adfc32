import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { settings } from "./client.ts";
import { startInPageSandbox } from "./mocks.ts";
import "./styles.css";

/** Queries keep their options' `retry: false` (the client retries what is transient); a list refetches when the window regains focus. */
const queryClient = new QueryClient();

// Without a base address, the sandbox runs inside the page (MSW) before the first request.
if (settings.inPage) await startInPageSandbox(settings.state);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
