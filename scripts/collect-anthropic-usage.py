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
import gzip
import json
import subprocess
import sys

PROMPT_FIELDS = ("model", "system", "messages", "tools", "tool_choice", "thinking", "output_format", "output_config")
BLOCKS = {"text", "tool_use", "tool_result", "thinking", "redacted_thinking"}


def git(repo, *args, check=True):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=check).stdout


def json_body(part):
    body = part.get("parsed_body")
    if body is not None:
        return body
    raw = part.get("body")
    if isinstance(raw, dict):
        raw = raw.get("string")
    if isinstance(raw, bytes) and raw[:2] == b"\x1f\x8b":  # a gzip-compressed body, recorded as YAML !!binary
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError):
            return None
    try:
        return json.loads(raw)
    except (TypeError, ValueError):
        return None


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
    import yaml

    commit = git(repo, "rev-parse", "HEAD").strip()
    files = [f for f in git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
             if f.endswith((".yaml", ".yml")) and "cassette" in f.lower()]
    for path in files:
        text = git(repo, "show", f"HEAD:{path}", check=False)  # a mirror may leave its largest files out
        if "api.anthropic.com" not in text:
            continue
        try:
            doc = yaml.safe_load(text)
        except yaml.YAMLError:
            continue
        if not isinstance(doc, dict):
            continue
        for index, interaction in enumerate(doc.get("interactions") or []):
            request, response = interaction.get("request") or {}, interaction.get("response") or {}
            uri = request.get("uri", "")
            if "api.anthropic.com" not in uri or not uri.split("?")[0].endswith("/v1/messages"):
                continue
            body, answer = json_body(request), json_body(response)
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
    out, repos = sys.argv[1], sys.argv[2:]
    seen, cases = set(), []
    for spec in repos:
        name, repo = spec.split("=", 1)
        for case in cases_of(repo, name):
            key = json.dumps([case["request"], case["input_tokens"]], sort_keys=True)
            if key not in seen:
                seen.add(key)
                cases.append(case)
    with open(out, "w") as f:
        json.dump(cases, f, ensure_ascii=False, separators=(",", ":"))
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
