"""Drives `hestai mcp` with the official MCP Python SDK over stdio, as a Python agent would.

Usage: python mcp_client.py NODE CLI WORKING_DIR
Prints one JSON document on stdout: what each call returned, as the SDK handed it over (a call the SDK
refuses, e.g. structured content that does not match the declared output schema, is reported as `raised`).
"""

import json
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def text_of(result):
    return "\n".join(getattr(block, "text", "") for block in result.content)


async def call(session, name, arguments):
    try:
        result = await session.call_tool(name, arguments)
    except Exception as error:  # the SDK raised: that is the finding
        return {"raised": f"{type(error).__name__}: {error}"}
    return {
        "is_error": bool(result.is_error),
        "text": text_of(result),
        "structured": result.structured_content,
    }


async def main(node, cli, working_dir):
    params = StdioServerParameters(command=node, args=[cli, "mcp"], cwd=working_dir)
    report = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            report["tools"] = sorted(tool.name for tool in tools.tools)
            report["bad_role"] = await call(session, "clock_in", {"working_dir": working_dir, "role": "Not A Role"})
            report["relative_dir"] = await call(session, "anchor_status", {"working_dir": "relative/dir"})
            report["unknown_key"] = await call(session, "anchor_status", {"working_dir": working_dir, "sessionId": "x"})
            report["clock_in"] = await call(session, "clock_in", {"working_dir": working_dir, "role": "implementation-lead", "focus": "python"})
            report["anchor_status"] = await call(session, "anchor_status", {"working_dir": working_dir})
            state = await session.read_resource("session://state")
            report["state"] = json.loads(state.contents[0].text)
            report["clock_out"] = await call(session, "clock_out", {"working_dir": working_dir, "summary": "python client"})
    print(json.dumps(report))


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:4])
