import { openSite } from "/work/main/apps/docs/test/support/browser.ts";
const site = await openSite({ path: "/conversations" });
await new Promise((r) => setTimeout(r, 2500));
const info = await site.page.evaluate(() => {
  const pre = [...document.querySelectorAll("pre")].find((p) => p.textContent?.includes("curl --get"))!;
  const b = pre.parentElement!.querySelector(".tooltip-copy-button")!;
  const path = [];
  for (let el: Element | null = b; el && el !== pre.parentElement; el = el.parentElement) path.push(el.tagName + "." + el.className.split(" ").slice(-2).join("."));
  return { pad: getComputedStyle(pre).paddingTop, codePad: getComputedStyle(pre.querySelector("code") ?? pre).paddingTop, path, preChildren: [...pre.children].map((c) => c.tagName + "." + c.className) , rectPre: pre.getBoundingClientRect().top, rectB: b.getBoundingClientRect().top};
});
console.log(JSON.stringify(info));
await site.close();
