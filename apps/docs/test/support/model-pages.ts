import { readFileSync } from "node:fs";
import { join } from "node:path";
import { distDirectory } from "../../src/paths.ts";

/** A model page of the reference: a tag whose description holds Redoc's `schemaDefinition`. */
export interface ModelPage {
  /** The tag's name, e.g. `Event trigger-fired`. */
  tag: string;
  /** The viewer's address of the page, e.g. `/event-trigger-fired`. */
  address: string;
  /** The schema the page shows, e.g. `#/components/schemas/TriggerFiredEventActivity`. */
  schemaRef: string;
}

/** The description the site renders (with its code samples). */
export const siteDescription = JSON.parse(readFileSync(join(distDirectory, "openapi.json"), "utf8")) as {
  tags: { name: string; description?: string }[];
};

/** Every model page of the built site. */
export const modelPages: ModelPage[] = siteDescription.tags.flatMap(({ name, description }) => {
  const schemaRef = /schemaDefinition schemaRef="([^"]+)"/.exec(description ?? "")?.[1];
  return schemaRef ? [{ tag: name, address: `/${name.toLowerCase().replaceAll(" ", "-")}`, schemaRef }] : [];
});
