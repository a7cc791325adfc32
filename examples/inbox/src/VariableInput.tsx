import type { ExternalEventTriggerParameter } from "@bot-conversation/types";
import type { VariableInputs } from "./payload.ts";

/** The input of one trigger variable, chosen by its type: number, a yes/no choice, date and time, JSON, a file's name and link, or text. */
export function VariableInput({
  code,
  parameter,
  inputs,
  onChange,
}: {
  code: string;
  parameter: ExternalEventTriggerParameter;
  inputs: VariableInputs;
  onChange: (inputs: VariableInputs) => void;
}) {
  const set = (field: string) => (event: { target: { value: string } }) => onChange({ ...inputs, [field]: event.target.value });
  const id = `variable-${code}`;
  const label = `${parameter.name} (${parameter.type})`;
  const value = inputs["value"] ?? "";
  switch (parameter.type) {
    case "Number":
      return (
        <Field id={id} label={label}>
          <input id={id} type="number" step="any" value={value} onChange={set("value")} />
        </Field>
      );
    case "Boolean":
      return (
        <Field id={id} label={label}>
          <select id={id} value={value} onChange={set("value")}>
            <option value="">Not sent</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        </Field>
      );
    case "DateTime":
      return (
        <Field id={id} label={label}>
          <input id={id} type="datetime-local" step="1" value={value} onChange={set("value")} />
        </Field>
      );
    case "ComplexObject":
      return (
        <Field id={id} label={label}>
          <textarea id={id} rows={3} placeholder='{"street": "…"}' value={value} onChange={set("value")} />
        </Field>
      );
    case "File":
      return (
        <fieldset>
          <legend>{label}</legend>
          <label>
            File name{" "}
            <input type="text" placeholder="invoice.pdf" value={inputs["name"] ?? ""} onChange={set("name")} aria-label={`${parameter.name} file name`} />
          </label>
          <label>
            Download link{" "}
            <input
              type="url"
              placeholder="https://…"
              value={inputs["fileUrl"] ?? ""}
              onChange={set("fileUrl")}
              aria-label={`${parameter.name} download link`}
            />
          </label>
        </fieldset>
      );
    default:
      // String, PersonName (a full name), and any type the inbox does not know: text.
      return (
        <Field id={id} label={label}>
          <input id={id} type="text" placeholder={parameter.type === "PersonName" ? "First Last" : ""} value={value} onChange={set("value")} />
        </Field>
      );
  }
}

/** A labelled row of the fire form. */
function Field({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}
