import { buildRequest, connectAllowed, curlLine, showBody, type TryItConfig, type TryItOperation, type TryItRequest } from "./request.ts";

/**
 * The "Try it" panel of the reference, run in the reader's browser (built into `dist/try-it/`,
 * files of the site, so the page's Content-Security-Policy needs no inline script for it). Each
 * operation's description carries an empty `<div data-try-it="operationId">`; the panel fills it
 * with a form generated from the description at build time, sends the request with `fetch`, and
 * shows it as a curl line and the response's status and body. The token lives in this script's
 * memory only: never in storage, a cookie or the address, and never in the curl line. A redirect is
 * never followed (as the client: fetch would send X-Token to the address it names), and a request
 * that has not been answered whole within `tryItTimeoutMs` is stopped, saying so.
 */

/** How long a request may take, its body included, before the panel stops it: 30 s (our choice). */
export const tryItTimeoutMs = 30_000;

/** Creates an element with attributes and children. */
function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) created.setAttribute(name, value);
  created.append(...children);
  return created;
}

/** What a panel keeps across the viewer's re-renders: the tab's memory, nothing else. */
interface PanelState {
  open: boolean;
  server: string;
  otherServer: string;
  values: Record<string, string>;
  curl: string;
  status: string;
  body: string;
}

/** Fills every `[data-try-it]` placeholder the viewer renders, now and whenever it renders more. */
export function mountTryIt(config: TryItConfig): void {
  const defaultServer = config.servers[0]?.url ?? "";
  /** The token: this variable, and the password fields that show it, only. */
  let token = "";
  const states = new Map<string, PanelState>();
  const policy = document.querySelector<HTMLMetaElement>('meta[http-equiv="Content-Security-Policy"]')?.content ?? "";

  function mount(placeholder: HTMLElement, operation: TryItOperation): void {
    const state = states.get(operation.operationId) ?? { open: false, server: defaultServer, otherServer: "", values: {}, curl: "", status: "", body: "" };
    states.set(operation.operationId, state);
    const id = (name: string) => `try-it-${operation.operationId}-${name}`;

    const serverSelect = element(
      "select",
      { id: id("server") },
      ...config.servers.map((server) => element("option", { value: server.url }, `${server.label}: ${server.url}`)),
      element("option", { value: "" }, "Another server (type its address)"),
    );
    serverSelect.value = state.server;
    const otherServer = element("input", { id: id("server-url"), type: "url", placeholder: "https://…", autocomplete: "off", spellcheck: "false" });
    otherServer.value = state.otherServer;
    const otherRow = element("p", { class: "try-it-row" }, element("label", { for: id("server-url") }, "Server address"), otherServer);
    otherRow.hidden = state.server !== "";
    serverSelect.addEventListener("change", () => {
      state.server = serverSelect.value;
      otherRow.hidden = state.server !== "";
    });
    otherServer.addEventListener("input", () => {
      state.otherServer = otherServer.value;
    });

    const tokenInput = element("input", {
      id: id("token"),
      type: "password",
      autocomplete: "off",
      spellcheck: "false",
      "data-try-it-token": "",
      "aria-describedby": id("token-hint"),
    });
    tokenInput.value = token;
    tokenInput.addEventListener("input", () => {
      token = tokenInput.value;
      // Every panel shows the same token, so it is typed once per tab.
      for (const other of document.querySelectorAll<HTMLInputElement>("input[data-try-it-token]")) if (other !== tokenInput) other.value = token;
    });

    const fieldRows = operation.fields.map((field) => {
      const hintId = id(`${field.name}-hint`);
      const attributes = { id: id(field.name), "aria-describedby": hintId, ...(field.required ? { "aria-required": "true" } : {}) };
      const input =
        field.kind === "choice"
          ? element(
              "select",
              attributes,
              element("option", { value: "" }, "(not sent)"),
              ...(field.choices ?? []).map((choice) => element("option", { value: choice }, choice)),
            )
          : field.kind === "json"
            ? element("textarea", { ...attributes, rows: "3", spellcheck: "false", ...(field.example ? { placeholder: `e.g. ${field.example}` } : {}) })
            : element("input", {
                ...attributes,
                type: "text",
                autocomplete: "off",
                spellcheck: "false",
                ...(field.example ? { placeholder: `e.g. ${field.example}` } : {}),
              });
      input.value = state.values[field.name] ?? "";
      input.addEventListener("input", () => {
        state.values[field.name] = input.value;
      });
      input.addEventListener("change", () => {
        state.values[field.name] = input.value;
      });
      const label = element("label", { for: id(field.name) }, element("code", {}, field.name), field.required ? " (required)" : "");
      return element(
        "p",
        { class: "try-it-row" },
        label,
        input,
        element("span", { id: hintId, class: "try-it-hint" }, `${field.in === "body" ? "body" : field.in}, ${field.type}`),
      );
    });
    const parameterRows = fieldRows.filter((_row, index) => operation.fields[index]?.in !== "body");
    const bodyRows = fieldRows.filter((_row, index) => operation.fields[index]?.in === "body");

    const curl = element("code", {}, state.curl);
    const status = element("p", { role: "status", class: "try-it-status" }, state.status);
    const body = element("code", {}, state.body);
    const curlBlock = element("pre", { tabindex: "0", "aria-label": "The request as curl" }, curl);
    const bodyBlock = element("pre", { tabindex: "0", "aria-label": "Response body" }, body);
    curlBlock.hidden = state.curl === "";
    bodyBlock.hidden = state.body === "";
    const show = (next: Partial<Pick<PanelState, "curl" | "status" | "body">>) => {
      Object.assign(state, next);
      curl.textContent = state.curl;
      status.textContent = state.status;
      body.textContent = state.body;
      curlBlock.hidden = state.curl === "";
      bodyBlock.hidden = state.body === "";
    };

    const send = element("button", { type: "submit" }, "Send request");
    const form = element(
      "form",
      { novalidate: "", "aria-label": `Try ${operation.summary}` },
      element("p", { class: "try-it-row" }, element("label", { for: id("server") }, "Server"), serverSelect),
      otherRow,
      element(
        "p",
        { class: "try-it-row" },
        element("label", { for: id("token") }, "X-Token"),
        tokenInput,
        element("span", { id: id("token-hint"), class: "try-it-hint" }, `Kept in this tab's memory only. ${config.tokenHint}`),
      ),
      ...parameterRows,
      ...(operation.bodyNote ? [element("p", { class: "try-it-hint" }, `JSON body. ${operation.bodyNote}`)] : []),
      ...bodyRows,
      element("p", {}, send),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void sendRequest();
    });

    async function sendRequest(): Promise<void> {
      let request: TryItRequest;
      try {
        request = buildRequest(operation, state.server === "" ? state.otherServer.trim() : state.server, state.values, token);
      } catch (error) {
        show({ curl: "", status: `Not sent: ${(error as Error).message}`, body: "" });
        return;
      }
      const line = curlLine(request);
      if (!connectAllowed(request.url, policy, location.origin)) {
        const origin = new URL(request.url).origin;
        show({
          curl: line,
          status: `Not sent: this page's Content-Security-Policy does not allow connecting to ${origin} (connect-src allows this site, 127.0.0.1 and localhost). Run the curl line instead, or see the reference's README to host it with a wider policy.`,
          body: "",
        });
        return;
      }
      show({ curl: line, status: "Sending…", body: "" });
      send.disabled = true;
      // A timer rather than AbortSignal.timeout: it also bounds the body's read, and a test's fake clock drives it.
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(), tryItTimeoutMs);
      try {
        // Sent once: a fire is not idempotent, so nothing here retries. A redirect is not followed: fetch
        // would send X-Token to the origin it names; the browser shows it as an opaque redirect.
        const response = await fetch(request.url, {
          method: request.method,
          headers: request.headers,
          ...(request.body !== undefined ? { body: request.body } : {}),
          cache: "no-store",
          credentials: "omit",
          referrerPolicy: "no-referrer",
          redirect: "manual",
          signal: stop.signal,
        });
        if (response.type === "opaqueredirect") {
          show({
            status:
              "A redirect (3xx), not followed: the browser hides its status and address, and nothing was sent to where it points (the client does the same). Use the address it redirects to as the server, if you trust it.",
            body: "",
          });
          return;
        }
        const text = await response.text();
        const type = response.headers.get("content-type");
        show({
          status: `${response.status} ${response.statusText}${type ? ` (${type})` : ""}${text === "" ? ", no body" : ""}`.replace("  ", " "),
          body: showBody(text),
        });
      } catch (error) {
        if (stop.signal.aborted)
          show({
            status: `Stopped: no complete answer from ${new URL(request.url).origin} within ${tryItTimeoutMs / 1000} s. Send again, or run the curl line.`,
            body: "",
          });
        else
          show({
            status: `No response from ${new URL(request.url).origin}: ${(error as Error).message}. Is the server running, and does it answer this page's origin (CORS)?`,
            body: "",
          });
      } finally {
        clearTimeout(timer);
        send.disabled = false;
      }
    }

    const details = element("details", { class: "try-it" }, element("summary", {}, "Try it: send this request"), form, status, curlBlock, bodyBlock);
    details.open = state.open;
    details.addEventListener("toggle", () => {
      state.open = details.open;
    });
    placeholder.replaceChildren(details);
  }

  function mountAll(): void {
    for (const placeholder of document.querySelectorAll<HTMLElement>("[data-try-it]")) {
      if (placeholder.childElementCount > 0) continue;
      const operation = config.operations.find((candidate) => candidate.operationId === placeholder.dataset["tryIt"]);
      if (operation) mount(placeholder, operation);
    }
  }
  // The viewer renders an operation when it is shown, and may render it again.
  new MutationObserver(mountAll).observe(document.body, { childList: true, subtree: true });
  mountAll();
}
