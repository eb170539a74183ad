"""An MCP client that opens a page through `tabwright mcp` over stdio, says
so, and then waits to be killed: what a client that crashes leaves behind.

usage: hang_client.py TABWRIGHT_BINARY ORIGIN [tabwright flags...]
"""

import asyncio
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(binary, origin, flags):
    server = StdioServerParameters(
        command=binary, args=["mcp", "--allow-origin", origin, "--timeout", "20", *flags]
    )
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            opened = await session.call_tool("open", {"url": origin + "/"})
            assert not opened.isError
            print("ready", flush=True)
            await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
