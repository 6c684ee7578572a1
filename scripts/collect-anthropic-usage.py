#!/usr/bin/env python3
"""Collect Anthropic Messages API requests with the input tokens the live API
reported for them, from the VCR cassettes of public repositories.

Usage: collect-anthropic-usage.py OUT.json OWNER/NAME=REPO_DIR [OWNER/NAME=REPO_DIR ...]

Each REPO_DIR is a git checkout (or bare mirror) of github.com/OWNER/NAME
whose HEAD is read with `git show`, so the commit recorded with every case is
the one read. A case is one recorded interaction: a POST to
api.anthropic.com/v1/messages (not count_tokens) whose JSON response (gzip-
compressed ones unpacked; streamed responses left out) carries `usage`, for
a Claude model, whose content blocks are text, tool calls and tool results
of text (images, documents and server-side tools cost what the request does
not show). The input is `input_tokens` plus the cache's
`cache_creation_input_tokens` and `cache_read_input_tokens`: what the request
cost, wherever it was billed. Identical request/figure pairs are kept once.

Only what reaches the prompt is kept from a request: model, system,
messages, tools, tool_choice, thinking, output_format and output_config
(requests with MCP servers, a container or context management are left
out: the provider fetches, runs or compacts what the request does not show).

Needs Python 3 and PyYAML. Not run by the test suite, which reads the output.
"""
import sys

from vcr import interactions, write_cases

PROMPT_FIELDS = ("model", "system", "messages", "tools", "tool_choice", "thinking", "output_format", "output_config")
BLOCKS = {"text", "tool_use", "tool_result", "thinking", "redacted_thinking"}


def countable_content(content):
    if isinstance(content, str):
        return True
    if not isinstance(content, list):
        return False
    for block in content:
        if not isinstance(block, dict) or block.get("type") not in BLOCKS:
            return False
        if block["type"] == "tool_result" and not countable_content(block.get("content", "")):
            return False
    return True


def countable(request):
    system = request.get("system")
    if system is not None and not countable_content(system):
        return False
    if any(not isinstance(t, dict) or "input_schema" not in t for t in request.get("tools", [])):
        return False  # server-side and Anthropic-defined tools expand out of sight
    if request.get("mcp_servers") or request.get("container") or request.get("context_management"):
        return False  # the provider fetches, runs or compacts out of sight
    return all(isinstance(m, dict) and countable_content(m.get("content")) for m in request.get("messages", []))


def cases_of(repo, name):
    for commit, path, index, request, body, answer in interactions(repo, lambda text: "api.anthropic.com" in text):
        uri = request.get("uri", "")
        if "api.anthropic.com" not in uri or not uri.split("?")[0].endswith("/v1/messages"):
            continue
        if not isinstance(body, dict) or not isinstance(answer, dict) or body.get("stream"):
            continue
        usage = answer.get("usage") or {}
        model = body.get("model")
        if not isinstance(usage.get("input_tokens"), int) or not isinstance(model, str) or not model.startswith("claude"):
            continue
        if not countable(body):
            continue
        total = usage["input_tokens"] + (usage.get("cache_creation_input_tokens") or 0) + (usage.get("cache_read_input_tokens") or 0)
        yield {
            "source": {"repo": name, "path": path, "commit": commit, "interaction": index},
            "request": {k: body[k] for k in PROMPT_FIELDS if k in body},
            "input_tokens": total,
        }


def main():
    write_cases(sys.argv, cases_of, "input_tokens")


if __name__ == "__main__":
    main()
