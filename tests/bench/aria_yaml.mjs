// The yardstick for snapshot size: Playwright's accessibility-tree YAML
// (what Playwright MCP shows a model) of each fixture page, in tokens
// counted as characters / 4, the same count `cargo xtask bench` uses for
// tabwright's text.
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
const sizes = [];
for (const name of readdirSync(dir).sort()) {
  if (name === "frame-inner.html" || name === "iframe-cross.html") continue;
  const html = readFileSync(new URL(name, dir), "utf8").replaceAll("/fx/frame-inner.html", "about:blank");
  await page.setContent(html);
  const yaml = await page.locator("body").ariaSnapshot();
  sizes.push(`${name.replace(".html", "")} ${Math.round(yaml.length / 4)}`);
}
console.log("Playwright aria YAML tokens (chars/4): " + sizes.join("; "));
await browser.close();
