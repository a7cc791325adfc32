import { fireExternalEventMutationOptions } from "@bot-conversation/query";
import type { ExternalEventTrigger } from "@bot-conversation/types";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { client } from "./client.ts";
import { ErrorNotice } from "./ErrorNotice.tsx";
import { toPayload, type VariableInputs } from "./payload.ts";
import { VariableInput } from "./VariableInput.tsx";

/** Fires the trigger into the conversation, with an input per variable typed by the variable's type. Never retried: firing twice runs the scenario twice. */
export function FireForm({ conversationId, trigger }: { conversationId: string; trigger: ExternalEventTrigger }) {
  const fire = useMutation(fireExternalEventMutationOptions(client));
  const [form, setForm] = useState<Record<string, VariableInputs>>({});
  const [formError, setFormError] = useState<Error | undefined>();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    fire.reset();
    let externalEventPayload;
    try {
      externalEventPayload = toPayload(trigger, form);
    } catch (error) {
      return setFormError(error as Error);
    }
    fire.mutate({ conversationId, externalEventId: trigger.externalEventId, externalEventPayload });
  };
  return (
    <form className="fire" aria-label={`Fire ${trigger.externalEventName}`} onSubmit={submit}>
      <h3>Fire {trigger.externalEventName}</h3>
      {Object.entries(trigger.parameters).map(([code, parameter]) => (
        <VariableInput key={code} code={code} parameter={parameter} inputs={form[code] ?? {}} onChange={(inputs) => setForm({ ...form, [code]: inputs })} />
      ))}
      <button type="submit" disabled={fire.isPending}>
        {fire.isPending ? "Firing…" : "Fire"}
      </button>
      {formError && <ErrorNotice title="Not sent." error={formError} />}
      {fire.error && <ErrorNotice title="The event was not fired." error={fire.error} />}
      {fire.isSuccess && (
        <p className="fired" role="status">
          Fired {trigger.externalEventName} into {conversationId}.
        </p>
      )}
    </form>
  );
}
