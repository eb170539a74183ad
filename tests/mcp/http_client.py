"""Drives `tabwright mcp --http` with the official MCP Python SDK's
streamable HTTP client (PyPI package `mcp`), as several MCP clients at once:
each gets a browser session of its own (a cookie one sets, another never
sees), one more than --max-sessions is refused with a clear error, a client
that opens a new MCP session for every call keeps its browser by the handle
the first answer names, a session left idle is closed by the server, and a
server with a token refuses a request without it.

usage: http_client.py URL ORIGIN MAX_SESSIONS IDLE_SECONDS [TOKEN]
Prints one line per step; exits non-zero on the first thing that is wrong.
"""

import asyncio
import re
import sys

import httpx
from mcp import ClientSession, types
from mcp.client.streamable_http import streamablehttp_client


def text_of(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


def headers_for(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


async def initialize(http, url, token, name):
    """An MCP initialize request sent by hand, to read the raw HTTP answer."""
    return await http.post(
        url,
        headers={**headers_for(token), "Accept": "application/json, text/event-stream"},
        json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-03-26", "capabilities": {},
            "clientInfo": {"name": name, "version": "1"}}},
    )


async def visitor(url, origin, name, token, ready, release):
    """One client: sets its own cookie, then (once every client has set
    theirs) reads the page and must see only its own."""
    async with streamablehttp_client(url, headers=headers_for(token)) as (read, write, _):
        async with ClientSession(read, write) as session:
            print(f"{name}: initialize", file=sys.stderr, flush=True)
            await session.initialize()
            print(f"{name}: open", file=sys.stderr, flush=True)
            opened = await session.call_tool("open", {"url": f"{origin}/remember?set={name}"})
            print(f"{name}: opened", file=sys.stderr, flush=True)
            assert not opened.isError, text_of(opened)
            ready.release()
            await release.wait()
            again = await session.call_tool("open", {"url": f"{origin}/remember"})
            page = text_of(again)
            assert f"cookie=who={name} " in page, page
            for other in ["ada", "grace", "edsger"]:
                assert other == name or f"who={other}" not in page, page
            print(f"{name}: sees only its own cookie")


async def refused(url, token, expected):
    """A client that must be turned away; returns what it was told."""
    try:
        async with streamablehttp_client(url, headers=headers_for(token)) as (read, write, _):
            async with ClientSession(read, write) as session:
                await asyncio.wait_for(session.initialize(), 10)
    except BaseException as error:  # the SDK raises from a task group
        told = repr(error)
        async with httpx.AsyncClient() as http:
            answer = await initialize(http, url, token, "probe")
        body = answer.text
        assert expected in body, (answer.status_code, body, told)
        return answer.status_code, body
    raise AssertionError("a client that should have been refused was served")


async def call_once(url, token, tool, arguments):
    """One call on an MCP session of its own, ended right after, as hosts
    and gateways that open a new session for every call do."""
    async with streamablehttp_client(url, headers=headers_for(token)) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await session.call_tool(tool, arguments)


async def churn(url, origin, token, max_sessions):
    """A client that opens a new MCP session for every call keeps its
    browser by the handle the first answer names, and more such calls than
    there are places never run out of them."""
    first = await call_once(url, token, "open", {"url": f"{origin}/remember?set=churner"})
    text = text_of(first)
    found = re.search(r"Session (tw_[a-z2-7]{26}): ", text)
    assert not first.isError and found, text
    handle = found.group(1)
    for step in range(2 * max_sessions):
        again = await call_once(url, token, "open", {"url": f"{origin}/remember", "session": handle})
        page = text_of(again)
        assert not again.isError and "cookie=who=churner " in page, (step, page)
        assert "Session tw_" not in page, page
    await call_once(url, token, "close", {"session": handle})
    print(f"new MCP session per call: {2 * max_sessions + 1} calls, one browser")


async def handoff_through_host(url, origin, token):
    """A host that shows a person a link (URL-mode elicitation): a handoff
    asks it to show the live view of that session alone, under a key of
    its own; the person types there and accepts in the host; the key ends
    with the handoff."""
    base = url.rsplit("/mcp", 1)[0]
    seen = {}

    async def shown(context, params):
        link = params.url
        seen["link"] = link
        key = link.split("key=", 1)[1]
        async with httpx.AsyncClient(timeout=30) as http:
            listed = (await http.get(f"{base}/live/sessions?key={key}")).json()["sessions"]
            seen["listed"] = len(listed)
            number = listed[0]["id"]
            typed = await http.post(f"{base}/live/input/{number}?key={key}",
                                    json={"type": "text", "text": "Grace-Hopper-7"})
            seen["typed"] = typed.status_code
        return types.ElicitResult(action="accept")

    async with streamablehttp_client(url, headers=headers_for(token)) as (read, write, _):
        async with ClientSession(read, write, elicitation_callback=shown) as session:
            await session.initialize()
            opened = await session.call_tool("open", {"url": f"{origin}/remember?set=person"})
            assert not opened.isError, text_of(opened)
            done = text_of(await session.call_tool(
                "handoff", {"reason": "Sign in with your key", "seconds": 60}))
            assert done.startswith("Handoff done"), done
            assert "Grace-Hopper-7" not in done, done
    assert seen.get("listed") == 1 and seen.get("typed") == 204, seen
    assert seen["link"].startswith(f"{base}/live?key=view_"), seen
    key = seen["link"].split("key=", 1)[1]
    async with httpx.AsyncClient(timeout=30) as http:
        later = await http.get(f"{base}/live/sessions?key={key}")
    # The key ended with the handoff: without the server's token nothing.
    assert later.status_code == 401 or later.json()["sessions"] == [], (later.status_code, later.text)
    print("handoff through the host: a link to that session alone, done there")


async def page_tool_through_host(url, origin, token):
    """A page's consequential tool (WebMCP): the server asks the person
    through the host's link before it runs; accepted, it runs."""
    asked = {}

    async def shown(context, params):
        asked["message"] = params.message
        return types.ElicitResult(action="accept")

    async with streamablehttp_client(url, headers=headers_for(token)) as (read, write, _):
        async with ClientSession(read, write, elicitation_callback=shown) as session:
            await session.initialize()
            opened = await session.call_tool("open", {"url": f"{origin}/buy"})
            assert not opened.isError, text_of(opened)
            assert "buy (no inputs): Buys it [consequential" in text_of(opened), text_of(opened)
            ran = await session.call_tool("page_tool", {"name": "buy"})
            said = text_of(ran)
            assert not ran.isError, said
            assert said.startswith("Called the page's tool buy"), said
            assert "BOUGHT" in said, said
    assert "buy" in asked.get("message", ""), asked
    print("page tool confirmed through the host: it ran")


async def main(url, origin, max_sessions, idle, token):
    names = ["ada", "grace", "edsger"][:max_sessions]
    ready = asyncio.Semaphore(0)
    release = asyncio.Event()
    tasks = [asyncio.create_task(visitor(url, origin, name, token, ready, release)) for name in names]
    for _ in names:
        # (A visitor that failed says why, rather than leaving this wait to
        # time out.)
        acquired = asyncio.create_task(ready.acquire())
        done, _ = await asyncio.wait([acquired, *tasks], timeout=90,
                                     return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if task.done() and task.exception() is not None:
                raise task.exception()
        if acquired not in done:
            raise TimeoutError("a visitor did not open its page within 90 s")
    # Every session is open now: one more is refused.
    status, body = await refused(url, token, f"at most {max_sessions} sessions")
    print(f"one too many: HTTP {status}")
    release.set()
    await asyncio.gather(*tasks)

    # The sessions ended with their clients: a new one is served.
    async with streamablehttp_client(url, headers=headers_for(token)) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            assert "open" in [tool.name for tool in listed.tools]
    print("after they left: served")

    await churn(url, origin, token, max_sessions)
    await handoff_through_host(url, origin, token)
    await page_tool_through_host(url, origin, token)

    # A session left open without a word is closed by the server.
    async with httpx.AsyncClient() as http:
        answer = await initialize(http, url, token, "idler")
        session_id = answer.headers.get("mcp-session-id")
        assert session_id, answer.headers
        await asyncio.sleep(idle + 2)
        later = await http.post(
            url,
            headers={**headers_for(token), "Accept": "application/json, text/event-stream",
                     "Mcp-Session-Id": session_id},
            json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        )
        assert later.status_code in (404, 400), (later.status_code, later.text)
    print(f"idle session closed: HTTP {later.status_code}")

    if token:
        async with httpx.AsyncClient() as http:
            bare = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "initialize"})
        assert bare.status_code == 401, (bare.status_code, bare.text)
        print("no token: HTTP 401")


if __name__ == "__main__":
    url, origin, max_sessions, idle = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    token = sys.argv[5] if len(sys.argv) > 5 else None
    asyncio.run(main(url, origin, max_sessions, idle, token))
    print("ok")
