"""Drives `tabwright mcp` through its stdio with the official MCP Python SDK
(PyPI package `mcp`), as an MCP client such as Claude Desktop would: list the
tools, open a served page, click a numbered element, take a screenshot and
get it back as MCP image content.

usage: client.py TABWRIGHT_BINARY ORIGIN [--backend cdp|webdriver]
Prints one line per step; exits non-zero on the first thing that is wrong.
"""

import asyncio
import base64
import re
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def text_of(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


def number_of(snapshot, needle):
    for line in snapshot.splitlines():
        if needle in line:
            found = re.match(r"\s*\*?\[(\d+)\]", line)
            if found:
                return int(found.group(1))
    raise AssertionError(f"no numbered element {needle!r} in:\n{snapshot}")


async def main(binary, origin, backend):
    server = StdioServerParameters(
        command=binary,
        args=["mcp", "--backend", backend, "--allow-origin", origin, "--timeout", "20"],
    )
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            info = await session.initialize()
            assert info.serverInfo.name == "tabwright", info.serverInfo
            print("initialized:", info.serverInfo.name, info.serverInfo.version)

            tools = (await session.list_tools()).tools
            names = [tool.name for tool in tools]
            for expected in ["open", "snapshot", "click", "type", "screenshot", "tabs", "dialog"]:
                assert expected in names, names
            click = next(tool for tool in tools if tool.name == "click")
            assert "element" in click.inputSchema["properties"], click.inputSchema
            print("tools:", ", ".join(names))

            opened = await session.call_tool("open", {"url": origin + "/"})
            assert not opened.isError, text_of(opened)
            page = text_of(opened)
            assert "Welcome home" in page, page
            print("opened:", page.splitlines()[0])

            link = number_of(page, '"Second page"')
            clicked = await session.call_tool("click", {"element": link})
            assert not clicked.isError, text_of(clicked)
            assert "The second page" in text_of(clicked), text_of(clicked)
            print("clicked:", text_of(clicked).splitlines()[0])

            shot = await session.call_tool("screenshot", {"numbers": True})
            images = [block for block in shot.content if block.type == "image"]
            assert len(images) == 1, shot.content
            assert images[0].mimeType == "image/png", images[0].mimeType
            png = base64.b64decode(images[0].data)
            assert png.startswith(b"\x89PNG\r\n\x1a\n"), png[:8]
            print("screenshot:", images[0].mimeType, len(png), "bytes")

            wrong = await session.call_tool("click", {"element": 999})
            assert wrong.isError, text_of(wrong)
            assert "no element 999" in text_of(wrong), text_of(wrong)
            print("error:", text_of(wrong))

            refused = await session.call_tool("open", {"url": "http://169.254.169.254/"})
            assert refused.isError and "Refused" in text_of(refused), text_of(refused)
            print("refused:", text_of(refused))


if __name__ == "__main__":
    backend = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--backend" else "cdp"
    asyncio.run(main(sys.argv[1], sys.argv[2], backend))
    print("ok")
