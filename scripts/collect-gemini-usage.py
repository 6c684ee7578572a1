#!/usr/bin/env python3
"""Collect Gemini API generateContent requests with the prompt tokens the live
API reported for them, from the VCR cassettes of public repositories.

Usage: collect-gemini-usage.py OUT.json OWNER/NAME=REPO_DIR [OWNER/NAME=REPO_DIR ...]

Each REPO_DIR is a git checkout (or bare mirror) of github.com/OWNER/NAME
whose HEAD is read with `git show`, so the commit recorded with every case is
the one read. A case is one recorded interaction: a POST to
generativelanguage.googleapis.com/.../models/MODEL:generateContent (not a
stream) whose JSON response (gzip-compressed ones unpacked) carries
`usageMetadata.promptTokenCount`, whose parts are text, function calls and
function responses (inline and file data cost what the request does not
show), with no server-side tools (search, code execution, URL context) and no
cached content (its prefix is input the request does not show).
The model is the one the URL names. Identical request/figure pairs are kept
once.

Only what reaches the prompt is kept from a request: contents, the system
instruction, tools, the tool config and the generation config.

Needs Python 3 and PyYAML. Not run by the test suite, which reads the output.
"""
import re
import sys

from vcr import interactions, write_cases

PROMPT_FIELDS = ("contents", "systemInstruction", "system_instruction", "tools", "toolConfig", "tool_config", "generationConfig", "generation_config")
PARTS = {"text", "functionCall", "function_call", "functionResponse", "function_response", "thought", "thoughtSignature", "thought_signature"}
MODEL = re.compile(r"/models/([^/:]+):generateContent$")
CLIENT_TOOLS = {"functionDeclarations", "function_declarations"}


def countable(body):
    if body.get("cachedContent") or body.get("cached_content"):
        return False  # the cached prefix is input the request does not show
    for tool in body.get("tools") or []:
        if not isinstance(tool, dict) or not set(tool) <= CLIENT_TOOLS:
            return False  # search, code execution, URL context: fetched or run out of sight
    for content in body.get("contents") or []:
        if not isinstance(content, dict):
            return False
        for part in content.get("parts") or []:
            if not isinstance(part, dict) or not set(part) <= PARTS:
                return False
    return True


def cases_of(repo, name):
    for commit, path, index, request, body, answer in interactions(repo, lambda text: "generativelanguage.googleapis.com" in text):
        uri = request.get("uri", "").split("?")[0]
        model = MODEL.search(uri)
        if "generativelanguage.googleapis.com" not in uri or model is None:
            continue
        if not isinstance(body, dict) or not isinstance(answer, dict):
            continue
        usage = answer.get("usageMetadata") or {}
        if not isinstance(usage.get("promptTokenCount"), int) or not countable(body):
            continue
        yield {
            "source": {"repo": name, "path": path, "commit": commit, "interaction": index},
            "model": model.group(1),
            "request": {k: body[k] for k in PROMPT_FIELDS if k in body},
            "prompt_tokens": usage["promptTokenCount"],
        }


def main():
    write_cases(sys.argv, cases_of, "prompt_tokens")


if __name__ == "__main__":
    main()
