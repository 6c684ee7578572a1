#!/usr/bin/env python3
"""Collect OpenAI Responses API requests with the input tokens the live API
reported for them, from the VCR cassettes of public repositories.

Usage: collect-responses-usage.py OUT.json OWNER/NAME=REPO_DIR [OWNER/NAME=REPO_DIR ...]

Each REPO_DIR is a git checkout (or bare mirror) of github.com/OWNER/NAME
whose HEAD is read with `git show`, so the commit recorded with every case is
the one read. A case is one recorded interaction: a POST to
api.openai.com/v1/responses whose JSON response (gzip-compressed ones
unpacked; streamed responses left out) carries a positive
`usage.input_tokens` (one cassette records 0, an edit), for a
gpt-4o, gpt-4.1, gpt-5 or o-series model. Identical request/figure pairs are
kept once.

Left out, because the provider adds to the prompt what the request does not
show: a `previous_response_id`, a stored conversation or prompt, hosted tools
(web search, file search, code interpreter...), and input content or
function outputs other than text and images given inline as base64 `data:`
URLs (an image given by URL or file id, or a file, costs what the request
does not show). Function calls, their outputs and reasoning items are kept.

An inline image is cut to the start of its data that holds its header (its
pixel size), as the Chat collector cuts it, so the file stays small and the
count is unchanged.

Only what reaches the prompt is kept from a request: model, input,
instructions, tools, tool_choice, text, reasoning and include.

Needs Python 3 and PyYAML. Not run by the test suite, which reads the output.
"""
import re
import sys

from vcr import cut_image, interactions, write_cases

PROMPT_FIELDS = ("model", "input", "instructions", "tools", "tool_choice", "text", "reasoning", "include")
MODELS = re.compile(r"^(gpt-4o|gpt-4\.1|gpt-5|o[1-9])")
TEXT_PARTS = {"input_text", "output_text", "text"}
ITEMS = {None, "message", "function_call", "function_call_output", "reasoning"}


def countable_part(part):
    if not isinstance(part, dict):
        return False
    if part.get("type") in TEXT_PARTS:
        return True
    url = part.get("image_url")
    return (part.get("type") == "input_image" and part.get("file_id") is None and isinstance(url, str)
            and url.startswith("data:image/") and ";base64," in url)


def cut_images(request):
    for item in request.get("input") if isinstance(request.get("input"), list) else []:
        for parts in (item.get("content"), item.get("output")):
            for part in parts if isinstance(parts, list) else []:
                if part.get("type") == "input_image":
                    part["image_url"] = cut_image(part["image_url"])
    return request


def countable(body):
    if body.get("previous_response_id") or body.get("conversation") or body.get("prompt"):
        return False
    if any(not isinstance(t, dict) or t.get("type") != "function" for t in body.get("tools") or []):
        return False
    items = body.get("input")
    if isinstance(items, str):
        return True
    if not isinstance(items, list):
        return False
    for item in items:
        if not isinstance(item, dict) or item.get("type") not in ITEMS:
            return False
        for parts in (item.get("content"), item.get("output")):
            if isinstance(parts, list) and not all(countable_part(p) for p in parts):
                return False
    return True


def cases_of(repo, name):
    for commit, path, index, request, body, answer in interactions(repo, lambda text: "api.openai.com/v1/responses" in text):
        if not request.get("uri", "").split("?")[0].endswith("/v1/responses"):
            continue
        if not isinstance(body, dict) or not isinstance(answer, dict) or body.get("stream"):
            continue
        usage = answer.get("usage") or {}
        model = body.get("model")
        # a figure of 0 is a cassette edited by hand, not what the API billed
        if not isinstance(usage.get("input_tokens"), int) or usage["input_tokens"] <= 0 or not isinstance(model, str) or not MODELS.match(model):
            continue
        if not countable(body):
            continue
        source = {"repo": name, "path": path, "commit": commit, "interaction": index}
        yield {"source": source, "request": cut_images({k: body[k] for k in PROMPT_FIELDS if k in body}), "input_tokens": usage["input_tokens"]}


if __name__ == "__main__":
    write_cases(sys.argv, cases_of, "input_tokens")
