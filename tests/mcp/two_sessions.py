"""Two model sessions for the live view's test, over the stateless MCP
revision (the Python SDK 2.x's `Client`): each opens a page of its own and
says `ready`; at each line on stdin the first session opens the page that
line names and says `opened`; at the end of stdin both close.

usage: two_sessions.py URL ORIGIN TOKEN
"""

import asyncio
import re
import sys

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


def client(url, token):
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
    return Client(streamable_http_client(url, http_client=http))


async def opened(client, url, handle=None):
    arguments = {"url": url} if handle is None else {"url": url, "session": handle}
    result = await client.call_tool("open", arguments)
    text = "\n".join(block.text for block in result.content if block.type == "text")
    assert not result.is_error, text
    found = re.match(r"Session (tw_[a-z2-7]{26}): ", text)
    return found.group(1) if found else handle


async def main(url, origin, token):
    async with client(url, token) as first, client(url, token) as second:
        mine = await opened(first, f"{origin}/one")
        theirs = await opened(second, f"{origin}/two")
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
            await opened(first, f"{origin}{line}", mine)
            print("opened", flush=True)
        for session, handle in [(first, mine), (second, theirs)]:
            await session.call_tool("close", {"session": handle})


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
