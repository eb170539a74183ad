"""Drives `tabwright mcp --http` with the official MCP Python SDK 2.x's
`Client` in its default mode: it probes `server/discover` and speaks the
stateless 2026-07-28 revision (no initialize, no Mcp-Session-Id), so the
browser session lives under the handle `open` answers with.

Checks, printing one line each: a twenty-step task in three sessions at
once keeps cookies, tabs and numbers; a handle is refused with another
token and after close; a call without a handle says what to send; a
cancelled call frees its session within a second; a call that waits
reports progress; a burst of opens and of legacy initializes makes no more
sessions than --max-sessions (no transport session either); a foreign
Origin and a slow client are turned away; the doors (a rebound host name
on every route, framing headers, another token's view and legacy session
ids, calls racing a close) stay shut.

usage: modern_client.py URL ORIGIN MAX_SESSIONS TOKEN OTHER_TOKEN
Exits non-zero on the first thing that is wrong.
"""

import asyncio
import json
import re
import socket
import sys
import time

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


def text_of(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


def client(url, token):
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
    return Client(streamable_http_client(url, http_client=http))


def legacy_initialize(token, name):
    """The headers and body of an initialize sent by hand (the revisions
    with transport sessions)."""
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": name, "version": "1"}}}
    return headers, body


async def handed_over(http, base, token):
    """The sessions the live view lists as handed to a person, once there
    are any (10 s at most)."""
    for _ in range(100):
        listed = (await http.get(f"{base}/live/sessions?token={token}")).json()["sessions"]
        handed = [s for s in listed if s.get("handoff")]
        if handed:
            return handed
        await asyncio.sleep(0.1)
    return []


def number(text, pattern):
    found = re.search(r"\[(\d+)\] " + pattern, text)
    assert found, f"no {pattern!r} in:\n{text}"
    return int(found.group(1))


class Steps:
    """One session's calls, each with the handle, each checked."""

    def __init__(self, client, handle):
        self.client, self.handle, self.count = client, handle, 1

    async def ok(self, tool, arguments=None, expect=None):
        result = await self.client.call_tool(tool, {**(arguments or {}), "session": self.handle})
        text = text_of(result)
        assert not result.is_error, f"{tool}: {text}"
        if expect:
            assert expect in text, f"{tool}: no {expect!r} in:\n{text}"
        self.count += 1
        return result, text


async def opened(client, url):
    """Opens `url` without a handle: a new session; returns its handle."""
    result = await client.call_tool("open", {"url": url})
    text = text_of(result)
    assert not result.is_error, text
    found = re.match(r"Session (tw_[a-z2-7]{26}): ", text)
    assert found, text
    return found.group(1), text


async def task(url, origin, token, name):
    """Twenty steps in one browser session over a stateless protocol."""
    async with client(url, token) as session:
        assert session.protocol_version == "2026-07-28", session.protocol_version
        listed = await session.list_tools()
        for tool in listed.tools:
            assert "session" in tool.input_schema["properties"], tool.name
        handle, _ = await opened(session, f"{origin}/remember?set={name}")
        steps = Steps(session, handle)
        _, home = await steps.ok("open", {"url": f"{origin}/"}, "Welcome home")
        await steps.ok("snapshot", expect="Second page")
        await steps.ok("click", {"element": number(home, 'link "Second page"')}, "The second page")
        await steps.ok("back", expect="Welcome home")
        await steps.ok("forward", expect="The second page")
        await steps.ok("back", expect="Welcome home")
        await steps.ok("tabs", {"action": "new", "url": f"{origin}/third"}, "The third page")
        await steps.ok("tabs", expect="2 tabs open")
        await steps.ok("tabs", {"action": "switch", "tab": 1}, "Welcome home")
        _, form = await steps.ok("open", {"url": f"{origin}/form"})
        field = number(form, "textbox")
        await steps.ok("type", {"element": field, "text": name}, name)
        await steps.ok("click", {"element": number(form, 'button "Go"')}, "clicked")
        await steps.ok("find", {"text": "clicked"}, "clicked")
        await steps.ok("press", {"keys": "Tab"})
        await steps.ok("scroll", {"direction": "down"})
        shot, _ = await steps.ok("screenshot")
        assert any(block.type == "image" for block in shot.content), "no picture"
        _, cookies = await steps.ok("open", {"url": f"{origin}/remember"}, f"cookie=who={name} ")
        for other in ["ada", "grace", "edsger"]:
            assert other == name or f"who={other}" not in cookies, cookies
        await steps.ok("tabs", expect="2 tabs open")
        await steps.ok("console")
        assert steps.count >= 20, steps.count
        await steps.ok("close", expect="is ended")
        gone = await session.call_tool("snapshot", {"session": handle})
        assert gone.is_error and "no browser session" in text_of(gone), text_of(gone)
        print(f"{name}: {steps.count} steps in one session, cookies and tabs its own")


async def handles(url, origin, token, other_token):
    async with client(url, token) as mine:
        handle, _ = await opened(mine, f"{origin}/")
        bare = await mine.call_tool("click", {"element": 1})
        assert bare.is_error and '"session"' in text_of(bare), text_of(bare)
        print("no handle: told to send one")
        async with client(url, other_token) as theirs:
            stolen = await theirs.call_tool("snapshot", {"session": handle})
            assert stolen.is_error and "no browser session" in text_of(stolen), text_of(stolen)
        print("another token: refused")

        # The live view lists the session (by a number, never its handle)
        # with its page and a picture, to a holder of a token only.
        base = url.rsplit("/mcp", 1)[0]
        async with httpx.AsyncClient(timeout=30) as http:
            listed = (await http.get(f"{base}/live/sessions?token={token}")).json()["sessions"]
            mine_listed = [s for s in listed if (s["url"] or "").startswith(origin)]
            assert mine_listed and handle not in str(listed), listed
            # The screencast runs only while someone looks: the list just
            # read starts it, and its first picture comes within a second.
            for _ in range(50):
                picture = await http.get(f"{base}/live/frame/{mine_listed[0]['id']}?token={token}")
                if picture.status_code == 200:
                    break
                await asyncio.sleep(0.1)
            assert picture.status_code == 200 and picture.content[:2] == b"\xff\xd8", picture.status_code
            page = await http.get(f"{base}/live", headers={"Authorization": f"Bearer {token}"})
            assert page.status_code == 200 and "tabwright: live" in page.text, page.status_code
            bare = await http.get(f"{base}/live/sessions")
            assert bare.status_code == 401, bare.status_code
        print(f"live view: {len(listed)} session(s) listed, a picture of each")

        # A cancelled call frees its session within a second.
        started = time.monotonic()
        try:
            await asyncio.wait_for(
                mine.call_tool("wait_for", {"text": "never on the page", "session": handle}), 1.0
            )
            raise AssertionError("the wait should not have ended")
        except (asyncio.TimeoutError, TimeoutError):
            pass
        cancelled = time.monotonic()
        after = await mine.call_tool("snapshot", {"session": handle})
        freed = time.monotonic() - cancelled
        assert not after.is_error and "Welcome home" in text_of(after), text_of(after)
        assert freed < 1.0, f"the next call took {freed:.2f} s"
        print(f"cancelled: the next call answered in {freed:.2f} s")

        # A call that waits reports its progress; a quick one need not.
        ticks = []

        async def progress(value, total, message):
            ticks.append(message)

        waited = await mine.call_tool(
            "wait_for", {"seconds": 2.5, "session": handle}, progress_callback=progress
        )
        assert not waited.is_error, text_of(waited)
        assert len(ticks) >= 2 and "wait_for" in ticks[0], ticks
        print(f"progress: {len(ticks)} notifications while it waited")
        await mine.call_tool("close", {"session": handle})


async def handoff(url, origin, token):
    """A person takes over through the live view: the model's handoff call
    waits (with progress), other calls are told a person has the session,
    the person's click and text reach the page, what they typed never
    reaches the model, Done ends it; a handoff nobody answers times out."""
    base = url.rsplit("/mcp", 1)[0]
    async with client(url, token) as session, httpx.AsyncClient(timeout=30) as http:
        handle, _ = await opened(session, f"{origin}/form")
        ticks = []

        async def progress(value, total, message):
            ticks.append(message)

        waiting = asyncio.create_task(session.call_tool(
            "handoff", {"reason": "Type your name", "seconds": 30, "session": handle},
            progress_callback=progress))
        mine = await handed_over(http, base, token)
        assert mine and mine[0]["handoff"]["reason"] == "Type your name", mine
        busy = await session.call_tool("snapshot", {"session": handle})
        assert busy.is_error and "A person has this session" in text_of(busy), text_of(busy)
        number = mine[0]["id"]

        async def person(body):
            answer = await http.post(f"{base}/live/input/{number}?token={token}", json=body)
            assert answer.status_code == 204, (answer.status_code, answer.text)

        await person({"type": "click", "fx": 0.05, "fy": 0.02})
        await person({"type": "text", "text": "Ada-Lovelace-42"})
        await asyncio.sleep(1.2)
        await person({"type": "done"})
        done = text_of(await waiting)
        assert done.startswith("Handoff done") and "Ada-Lovelace-42" not in done, done
        assert "••••" in done, done
        assert ticks and "waiting for the person" in ticks[0], ticks
        after = text_of(await session.call_tool("snapshot", {"session": handle}))
        assert "Ada-Lovelace-42" not in after and "••••" in after, after
        late = text_of(await session.call_tool(
            "handoff", {"reason": "Nobody comes", "seconds": 1, "session": handle}))
        assert late.startswith("Handoff timed out"), late
        refused = await http.post(f"{base}/live/input/{number}?token={token}", json={"type": "done"})
        assert refused.status_code == 409, refused.status_code
        quitting = asyncio.create_task(session.call_tool(
            "handoff", {"reason": "Solve the check", "seconds": 30, "session": handle}))
        assert await handed_over(http, base, token), "the second handoff never showed"
        await person({"type": "give_up"})
        given_up = text_of(await quitting)
        assert given_up.startswith("Handoff given up"), given_up
        await session.call_tool("close", {"session": handle})
    print(f"handoff: done through the live view ({len(ticks)} progress notes), the typed text hidden; one timed out, one given up")
    print("  it answered: " + " / ".join(done.splitlines()[:12]))


async def burst(url, origin, token, max_sessions):
    """Three times the limit of opens at once: exactly the limit get one."""

    async def one():
        async with client(url, token) as session:
            result = await session.call_tool("open", {"url": f"{origin}/"})
            text = text_of(result)
            found = re.match(r"Session (tw_\w+):", text)
            if found:
                return found.group(1)
            assert result.is_error and f"at most {max_sessions} sessions" in text, text
            return None

    made = await asyncio.gather(*[one() for _ in range(3 * max_sessions)])
    handles = [handle for handle in made if handle]
    assert len(handles) == max_sessions, made
    print(f"burst of {3 * max_sessions} opens: {len(handles)} sessions")
    async with client(url, token) as session:
        for handle in handles:
            closed = await session.call_tool("close", {"session": handle})
            assert not closed.is_error, text_of(closed)

    # The same with the legacy handshake, sent by hand all at once.
    headers, init = legacy_initialize(token, "burst")
    async with httpx.AsyncClient(timeout=60) as http:
        answers = await asyncio.gather(
            *[http.post(url, headers=headers, json=init) for _ in range(3 * max_sessions)]
        )
        # No transport session past the limit: the rest are turned away
        # with a 503 before one is made.
        sessions = [
            answer.headers["mcp-session-id"]
            for answer in answers
            if "mcp-session-id" in answer.headers
        ]
        assert len(sessions) <= max_sessions, [(a.status_code, a.text[:200]) for a in answers]
        refused = [a for a in answers
                   if a.status_code == 503 and f"at most {max_sessions} sessions" in a.text]
        assert len(sessions) + len(refused) == len(answers), [a.text[:200] for a in answers]
        print(f"burst of {len(answers)} initializes: {len(sessions)} sessions")
        for session_id in sessions:
            await http.delete(url, headers={**headers, "Mcp-Session-Id": session_id})


async def transport(url, token):
    headers, probe = legacy_initialize(token, "page")
    async with httpx.AsyncClient(timeout=30) as http:
        foreign = await http.post(
            url, headers={**headers, "Origin": "http://attacker.example"}, json=probe
        )
        assert foreign.status_code == 403, (foreign.status_code, foreign.text)
        print("foreign origin: HTTP 403")
        wrong = await http.post(url, headers={**headers, "Authorization": "Bearer nope"}, json=probe)
        assert wrong.status_code == 401, (wrong.status_code, wrong.text)
        print("wrong token: HTTP 401")

    # A client that sends half its headers and then nothing is let go (in
    # a thread: the socket blocks).
    host, port = url.split("//")[1].split("/")[0].split(":")

    def slow_client():
        started = time.monotonic()
        with socket.create_connection((host, int(port)), timeout=40) as slow:
            slow.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            while slow.recv(4096):
                pass
        return time.monotonic() - started

    held = await asyncio.to_thread(slow_client)
    assert held < 30, held
    print(f"slow client: let go after {held:.0f} s")


async def doors(url, origin, token, other_token):
    """The listener's doors, tried as a page in the person's own browser
    and as another client would: a rebound host name on every route, the
    headers that keep answers out of other sites' frames and images,
    another token's view of a session and of its handoff, a legacy
    session id sent with another token, the live view's address taken
    from the browser, and calls racing a close."""
    base = url.rsplit("/mcp", 1)[0]
    port = base.rsplit(":", 1)[1]
    auth = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=30) as http:
        # Every route the server knows, and one it does not: a name
        # rebound to loopback is refused before any route is chosen.
        routes = [("GET", "/mcp"), ("POST", "/mcp"), ("DELETE", "/mcp"), ("GET", "/live"),
                  ("GET", "/live/sessions"), ("GET", "/live/frame/1"),
                  ("POST", "/live/input/1"), ("GET", "/nowhere")]
        for method, path in routes:
            for query in ["", f"?token={token}"]:
                answer = await http.request(
                    method, f"{base}{path}{query}", json={} if method == "POST" else None,
                    headers={**auth, "Host": f"rebind.example:{port}"})
                assert answer.status_code == 403, (method, path, answer.status_code, answer.text[:200])
        print(f"rebound host: HTTP 403 on all {len(routes)} routes")

    async with client(url, token) as mine, client(url, other_token) as theirs, \
            httpx.AsyncClient(timeout=30) as http:
        handle, _ = await opened(mine, f"{origin}/remember?set=owner")
        listed = (await http.get(f"{base}/live/sessions?token={token}")).json()["sessions"]
        own = [s for s in listed if (s["url"] or "").startswith(f"{origin}/remember")]
        assert own and own[0]["title"] == "Remember", listed
        number = own[0]["id"]
        page = await http.get(f"{base}/live?token={token}")
        assert page.headers.get("x-frame-options") == "DENY", page.headers
        assert "frame-ancestors 'none'" in page.headers.get("content-security-policy", ""), page.headers
        for answer in [page, await http.get(f"{base}/live/sessions?token={token}")]:
            assert answer.headers.get("x-content-type-options") == "nosniff", answer.headers
            assert answer.headers.get("cross-origin-resource-policy") == "same-origin", answer.headers
        for _ in range(50):
            picture = await http.get(f"{base}/live/frame/{number}?token={token}")
            if picture.status_code == 200:
                break
            await asyncio.sleep(0.1)
        assert picture.status_code == 200, picture.status_code
        assert picture.headers.get("cross-origin-resource-policy") == "same-origin", picture.headers
        assert picture.headers.get("x-content-type-options") == "nosniff", picture.headers
        print("headers: not framed, not sniffed, not another site's picture")

        # Another token sees nothing of the session and cannot end its
        # handoff.
        waiting = asyncio.create_task(mine.call_tool(
            "handoff", {"reason": "Only mine", "seconds": 30, "session": handle}))
        assert await handed_over(http, base, token), "the handoff never showed"
        theirs_listed = (await http.get(f"{base}/live/sessions?token={other_token}")).json()["sessions"]
        assert all(s["id"] != number for s in theirs_listed), theirs_listed
        assert "owner" not in str(theirs_listed) and origin not in str(theirs_listed), theirs_listed
        seen = await http.get(f"{base}/live/frame/{number}?token={other_token}")
        assert seen.status_code == 404, seen.status_code
        pressed = await http.post(f"{base}/live/input/{number}?token={other_token}", json={"type": "done"})
        assert pressed.status_code == 404, pressed.status_code
        given_up = await http.post(f"{base}/live/input/{number}?token={token}", json={"type": "give_up"})
        assert given_up.status_code == 204, given_up.status_code
        ended = text_of(await waiting)
        assert ended.startswith("Handoff given up"), ended
        print("another token: sees no session, cannot press Done")

        # Calls racing a close on the same handle: none of those after it
        # makes a browser.
        closing = asyncio.create_task(mine.call_tool("close", {"session": handle}))
        await asyncio.sleep(0.02)
        answers = await asyncio.gather(*[
            mine.call_tool("snapshot", {"session": handle}) for _ in range(3)])
        assert not (await closing).is_error
        after = [text_of(answer) for answer in answers]
        for text in after:
            assert "Remember" in text or "closed" in text or "no browser session" in text, text
        assert any("closed" in text or "no browser session" in text for text in after), after
        for _ in range(50):
            left = (await http.get(f"{base}/live/sessions?token={token}")).json()["sessions"]
            if all(s["id"] != number for s in left):
                break
            await asyncio.sleep(0.1)
        assert all(s["id"] != number for s in left), left
        print("close racing calls: nothing made after it")

    # A legacy MCP session is its token's: another token sending its id
    # gets no page.
    headers, init = legacy_initialize(token, "owner")
    async with httpx.AsyncClient(timeout=60) as http:
        made = await http.post(url, headers=headers, json=init)
        session_id = made.headers["mcp-session-id"]
        protocol = {"Mcp-Protocol-Version": "2025-11-25", "Mcp-Session-Id": session_id}
        await http.post(url, headers={**headers, **protocol},
                        json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "open", "arguments": {"url": f"{origin}/remember?set=legacy"}}}
        stolen = await http.post(url, json=call, headers={
            **headers, **protocol, "Authorization": f"Bearer {other_token}"})
        assert "opened with another token" in stolen.text, stolen.text[:400]
        owned = await http.post(url, json=call, headers={**headers, **protocol})
        assert "cookie=who=legacy" in owned.text, owned.text[:400]
        await http.delete(url, headers={**headers, **protocol})
    print("legacy session id with another token: refused")


def answer_of(response):
    """The JSON-RPC answer in a streamable HTTP response (JSON or SSE)."""
    if response.headers.get("content-type", "").startswith("application/json"):
        return response.json()
    for line in response.text.splitlines():
        if line.startswith("data: ") and '"jsonrpc"' in line:
            return json.loads(line[len("data: "):])
    raise AssertionError(f"no answer in {response.status_code} {response.text[:300]}")


async def tasks(url, origin, token, other_token):
    """A client that declares the Tasks extension: a long wait becomes a
    task it polls (its status the progress sentence) and reads the answer
    of; a task it cancels stops and frees the session at once; a quick
    call is answered as usual; another token cannot read the task."""
    headers, init = legacy_initialize(token, "tasker")
    init["params"]["capabilities"] = {"extensions": {"io.modelcontextprotocol/tasks": {}}}
    async with httpx.AsyncClient(timeout=60) as http:
        made = await http.post(url, headers=headers, json=init)
        assert "io.modelcontextprotocol/tasks" in made.text, made.text[:400]
        session = {"Mcp-Protocol-Version": "2025-11-25", "Mcp-Session-Id": made.headers["mcp-session-id"]}
        await http.post(url, headers={**headers, **session},
                        json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        ids = iter(range(10, 1000))

        async def rpc(method, params, bearer=token):
            body = {"jsonrpc": "2.0", "id": next(ids), "method": method, "params": params}
            response = await http.post(url, json=body, headers={
                **headers, **session, "Authorization": f"Bearer {bearer}"})
            return answer_of(response)

        def call(tool, arguments):
            return rpc("tools/call", {"name": tool, "arguments": arguments})

        quick = await call("open", {"url": f"{origin}/"})
        assert quick["result"].get("resultType", "complete") != "task", quick
        assert "Welcome home" in json.dumps(quick), quick

        started = time.monotonic()
        made = (await call("wait_for", {"seconds": 3}))["result"]
        assert made["resultType"] == "task" and made["status"] == "working", made
        assert time.monotonic() - started < 1.5, "the task was not made at once"
        task = made["taskId"]
        stolen = await rpc("tasks/get", {"taskId": task}, bearer=other_token)
        assert "error" in stolen, stolen
        messages = set()
        for _ in range(100):
            got = (await rpc("tasks/get", {"taskId": task}))["result"]
            if got["status"] != "working":
                break
            messages.add(got.get("statusMessage", ""))
            await asyncio.sleep(0.3)
        assert got["status"] == "completed", got
        assert any("wait_for: waiting for the page" in m for m in messages), messages
        assert "Waited" in json.dumps(got["result"]) or "wait" in json.dumps(got["result"]).lower(), got

        never = (await call("wait_for", {"text": "never on the page"}))["result"]
        assert never["resultType"] == "task", never
        await asyncio.sleep(0.5)
        cancelled = await rpc("tasks/cancel", {"taskId": never["taskId"]})
        assert "error" not in cancelled, cancelled
        for _ in range(40):
            got = (await rpc("tasks/get", {"taskId": never["taskId"]}))["result"]
            if got["status"] != "working":
                break
            await asyncio.sleep(0.1)
        assert got["status"] == "cancelled", got
        after = time.monotonic()
        snapshot = await call("snapshot", {})
        assert snapshot["result"].get("resultType", "complete") != "task", snapshot
        assert "Welcome home" in json.dumps(snapshot) and time.monotonic() - after < 2, snapshot
        await http.delete(url, headers={**headers, **session})
    print(f"tasks: a long wait polled to its answer ({len(messages)} status sentences), a cancelled one stopped")


async def main(url, origin, max_sessions, token, other_token):
    await asyncio.gather(
        *[task(url, origin, token, name) for name in ["ada", "grace", "edsger"]],
        transport(url, token),
    )
    await handles(url, origin, token, other_token)
    await handoff(url, origin, token)
    await doors(url, origin, token, other_token)
    await tasks(url, origin, token, other_token)
    await burst(url, origin, token, max_sessions)


if __name__ == "__main__":
    url, origin, max_sessions, token, other_token = sys.argv[1:6]
    asyncio.run(main(url, origin, int(max_sessions), token, other_token))
    print("ok")
