// The yardstick for snapshot size: Playwright's accessibility-tree YAML of
// each fixture page, in tokens counted as characters / 4 (the count
// `cargo xtask bench` uses for tabwright's text): in its "ai" mode, with
// refs, which is what Playwright MCP shows a model, and its plain default.
//
//   cd tests/bench && npm install --no-save playwright-core@1 && node aria_yaml.mjs
//
// It drives Debian's Chromium (never a downloaded browser) and loads each
// fixture with setContent, so it needs no server; the cross-origin frame
// fixture is left out (it needs two origins).
import { readdirSync, readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const dir = new URL("../fixtures/", import.meta.url);
const browser = await chromium.launch({
  executablePath: "/usr/lib/chromium/chromium",
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
const ai = [];
const plain = [];
for (const name of readdirSync(dir).sort()) {
  if (name === "frame-inner.html" || name === "iframe-cross.html") continue;
  const html = readFileSync(new URL(name, dir), "utf8").replaceAll("/fx/frame-inner.html", "about:blank");
  await page.setContent(html);
  const short = name.replace(".html", "");
  const withRefs = await page.locator("body").ariaSnapshot({ mode: "ai" });
  ai.push(`${short} ${Math.round(withRefs.length / 4)}`);
  const yaml = await page.locator("body").ariaSnapshot();
  plain.push(`${short} ${Math.round(yaml.length / 4)}`);
}
console.log("Playwright MCP format (ariaSnapshot mode ai) tokens: " + ai.join("; "));
console.log("plain ariaSnapshot YAML tokens: " + plain.join("; "));
await browser.close();
