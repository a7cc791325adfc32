import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { workflowsPath } from "../src/paths.ts";
import { type ArazzoDocument, workflowsSectionHeading } from "../src/workflows.ts";
import { useSite } from "./support/browser.ts";

const document = parse(readFileSync(workflowsPath, "utf8")) as ArazzoDocument;

describe("the reference's Workflows section, generated from the Arazzo document, in Chromium", () => {
  const site = useSite({ path: "/#/section/workflows" });

  it("opens on a fresh load and shows every workflow with its steps, inputs and success criteria", async () => {
    const { page } = site;
    await page.getByRole("heading", { name: workflowsSectionHeading }).first().waitFor({ state: "visible" });
    const text = await page.locator("body").innerText();
    for (const workflow of document.workflows) {
      expect(text, workflow.workflowId).toContain(workflow.summary ?? workflow.workflowId);
      expect(text).toContain(`Workflow ${workflow.workflowId}.`);
      for (const step of workflow.steps) {
        expect(text).toContain(step.stepId);
        for (const criterion of step.successCriteria ?? []) expect(text).toContain(criterion.condition.replaceAll("\n", " "));
      }
    }
    // Operations are named by method and path, inputs by name with their example defaults.
    expect(text).toContain("POST /api/v1/runtime/simple/external/events");
    expect(text).toContain('"5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c"');
    expect(site.errors).toEqual([]);
    expect(site.foreignRequests).toEqual([]);
  });

  it("the sidebar lists the section", async () => {
    expect(await site.page.locator('a[href$="/section/workflows"]').count()).toBeGreaterThan(0);
  });
});
