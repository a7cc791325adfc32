import { ApiError, AuthenticationError, NotFoundError } from "@bot-conversation/client";

/** The service's own explanation in an error body (RFC 9457 `detail`, else `title`), when it gave one. */
function serviceDetail(error: Error): string | undefined {
  if (!(error instanceof ApiError) || typeof error.body !== "object" || error.body === null) return undefined;
  const { detail, title } = error.body as { detail?: unknown; title?: unknown };
  return typeof detail === "string" ? detail : typeof title === "string" ? title : undefined;
}

/** What went wrong, in a line a person can act on. */
function headline(error: Error): string {
  if (error instanceof AuthenticationError) return "The token was refused (401): check the token setting.";
  if (error instanceof NotFoundError) return "Not found (404).";
  if (error instanceof ApiError) return `The service answered ${error.status}.`;
  return `${error.name}: ${error.message}`;
}

/** An error of a query or the fire: the service's status and detail, and a Retry button when the action can be repeated. */
export function ErrorNotice({ error, title, onRetry }: { error: Error; title: string; onRetry?: (() => void) | undefined }) {
  const detail = serviceDetail(error);
  return (
    <div className="error" role="alert">
      <strong>{title}</strong> {headline(error)}
      {detail && <p className="service-detail">{detail}</p>}
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
