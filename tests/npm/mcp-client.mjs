// Drives `tabwright mcp` with the official MCP TypeScript SDK's client
// (`@modelcontextprotocol/sdk` from npm), over stdio or streamable HTTP:
// every tool carries a title and the four hints; a page is opened and an
// element clicked; a call aborted by the client (the SDK sends
// notifications/cancelled) frees the session within a second; a call that
// waits reports progress; over HTTP, a new client passing the handle the
// first answer named gets the same page.
//
// Over stdio the server also serves its live view (--live), which must show
// the session's page and a picture of it.
//
// usage: node mcp-client.mjs stdio TABWRIGHT_BINARY ORIGIN LIVE_PORT
//        node mcp-client.mjs http URL ORIGIN TOKEN
// Prints one line per check and "ok"; exits non-zero on the first failure.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target, origin, extra] = process.argv.slice(2);
const token = mode === "http" ? extra : undefined;
const livePort = mode === "stdio" ? extra : undefined;

function fail(message) {
  console.error(message);
  process.exit(1);
}

const textOf = (result) =>
  result.content.filter((block) => block.type === "text").map((block) => block.text).join("\n");

const transport =
  mode === "stdio"
    ? new StdioClientTransport({
        command: target,
        args: ["mcp", "--allow-origin", origin, "--timeout", "20", "--live", `127.0.0.1:${livePort}`],
        stderr: "ignore",
      })
    : new StreamableHTTPClientTransport(new URL(target), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      });
const client = new Client({ name: "tabwright-test", version: "1" });
await client.connect(transport);
console.log(`${mode}: connected`);

const { tools } = await client.listTools();
for (const tool of tools) {
  const hints = tool.annotations ?? {};
  for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
    if (typeof hints[hint] !== "boolean") fail(`${tool.name} has no ${hint}`);
  }
  if (!tool.title) fail(`${tool.name} has no title`);
}
console.log(`${tools.length} tools, each with a title and four hints`);

const opened = await client.callTool({ name: "open", arguments: { url: `${origin}/` } });
if (opened.isError) fail(textOf(opened));
const link = /\[(\d+)\] link "Second page"/.exec(textOf(opened));
if (!link) fail(textOf(opened));
const clicked = await client.callTool({ name: "click", arguments: { element: Number(link[1]) } });
if (!textOf(clicked).includes("The second page")) fail(textOf(clicked));
console.log("opened and clicked");

if (livePort) {
  const live = `http://127.0.0.1:${livePort}/live`;
  const { sessions } = await (await fetch(`${live}/sessions`)).json();
  if (sessions.length !== 1 || !String(sessions[0].url).startsWith(origin)) fail(JSON.stringify(sessions));
  let picture;
  for (let i = 0; i < 40; i++) {
    picture = await fetch(`${live}/frame/${sessions[0].id}`);
    if (picture.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const bytes = new Uint8Array(await picture.arrayBuffer());
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) fail(`no picture: ${picture.status}`);
  const foreign = await fetch(`${live}/sessions`, { headers: { Origin: "http://attacker.example" } });
  if (foreign.status !== 403) fail(`a foreign origin got ${foreign.status}`);
  console.log(`live view: ${sessions[0].title}, a picture, ${sessions[0].calls.length} calls`);
}

// Abort a wait that would last the whole timeout.
const abort = new AbortController();
setTimeout(() => abort.abort(), 1000);
try {
  await client.callTool(
    { name: "wait_for", arguments: { text: "never on the page" } },
    undefined,
    { signal: abort.signal },
  );
  fail("the aborted wait ended by itself");
} catch (error) {
  if (!abort.signal.aborted) fail(`the wait failed: ${error}`);
}
const cancelled = performance.now();
const after = await client.callTool({ name: "snapshot", arguments: {} });
const freed = (performance.now() - cancelled) / 1000;
if (after.isError || !textOf(after).includes("The second page")) fail(textOf(after));
if (freed >= 1) fail(`the call after the abort took ${freed.toFixed(2)} s`);
console.log(`aborted: the next call answered in ${freed.toFixed(2)} s`);

const ticks = [];
const waited = await client.callTool(
  { name: "wait_for", arguments: { seconds: 2.5 } },
  undefined,
  { onprogress: (progress) => ticks.push(progress), resetTimeoutOnProgress: true },
);
if (waited.isError) fail(textOf(waited));
if (ticks.length < 2) fail(`progress: ${JSON.stringify(ticks)}`);
console.log(`progress: ${ticks.length} notifications`);

if (mode === "http") {
  // A host that opens a new MCP session for every call: the first answer
  // named the browser session's handle, and a new client passing it gets
  // the same page.
  const handle = /Session (tw_[a-z2-7]{26}):/.exec(textOf(opened));
  if (!handle) fail(`no handle in the first answer: ${textOf(opened)}`);
  await client.close();
  const again = new Client({ name: "tabwright-test-again", version: "1" });
  await again.connect(
    new StreamableHTTPClientTransport(new URL(target), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  const kept = await again.callTool({ name: "snapshot", arguments: { session: handle[1] } });
  if (kept.isError || !textOf(kept).includes("The second page")) fail(textOf(kept));
  console.log("reconnected: the handle kept the page");
  await again.callTool({ name: "close", arguments: { session: handle[1] } });
  await again.close();
} else {
  await client.callTool({ name: "close", arguments: {} });
  await client.close();
}
console.log("ok");
