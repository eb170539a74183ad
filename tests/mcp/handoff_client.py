"""The model's side of a handoff driven by a person in the live view: opens
a page under a handle (Python SDK 2.x, stateless), says "waiting" with the
session's live-view number, calls handoff and waits; then prints the answer
and the next snapshot, for the test that plays the person to check.

usage: handoff_client.py URL PAGE_URL TOKEN
"""

import asyncio
import re
import sys

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


def text_of(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


async def main(url, page, token):
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)
    async with Client(streamable_http_client(url, http_client=http)) as session:
        opened = await session.call_tool("open", {"url": page})
        handle = re.match(r"Session (tw_\w+):", text_of(opened)).group(1)
        base = url.rsplit("/mcp", 1)[0]
        async with httpx.AsyncClient() as plain:
            listed = (await plain.get(f"{base}/live/sessions?token={token}")).json()["sessions"]
        number = next(s["id"] for s in listed if (s["url"] or "").startswith(page))
        print(f"waiting {number}", flush=True)
        answer = await session.call_tool(
            "handoff", {"reason": "Type the password", "seconds": 90, "session": handle})
        print("ANSWER " + text_of(answer).replace("\n", " / "), flush=True)
        after = await session.call_tool("snapshot", {"session": handle})
        print("AFTER " + text_of(after).replace("\n", " / "), flush=True)
        await session.call_tool("close", {"session": handle})


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
