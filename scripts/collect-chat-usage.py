#!/usr/bin/env python3
"""Collect OpenAI Chat Completions requests with the prompt_tokens the live API
reported for them, from the VCR cassettes of public repositories.

Usage: collect-chat-usage.py OUT.json OWNER/NAME=REPO_DIR [OWNER/NAME=REPO_DIR ...]

Each REPO_DIR is a git checkout (or bare mirror) of github.com/OWNER/NAME
whose HEAD is read with `git show`, so the commit recorded with every case is
the one read. A case is
one recorded interaction: a POST to api.openai.com/.../chat/completions whose
JSON response (gzip-compressed ones unpacked), or the last chunk of whose
streamed response, carries usage.prompt_tokens, for
an o200k model (the gpt-4o, gpt-4.1 and gpt-5 families and the o-series;
audio and search previews left out) or a cl100k chat model (gpt-3.5-turbo,
gpt-4, gpt-4-turbo), whose message content is text, or images given inline as base64
`data:` URLs (an image given by URL, a file or audio is priced from data the
request does not show). Identical request/figure pairs are kept once.

An inline image is cut to the start of its data that holds its header (the
pixel size the price depends on; the image's bytes are not tokenized as
text), so the file stays small and the count is unchanged.

Only what reaches the prompt is kept from a request: model, messages, tools,
tool_choice, functions, function_call and response_format.

A response that names a model other than OpenAI's is left out: a client
pointed at a proxy (OpenRouter, say) can record its requests under
api.openai.com while another model answers and counts them.

Needs Python 3 and PyYAML. Not run by the test suite, which reads the output.
"""
import json
import re
import sys

from vcr import cut_image, interactions, write_cases

PROMPT_FIELDS = ("model", "messages", "tools", "tool_choice", "functions", "function_call", "response_format")
MODEL = re.compile(r"^(gpt-4o|gpt-4\.1|gpt-5|o[1-9]|gpt-3\.5-turbo|gpt-4(?![o.]))")
EXCLUDED_MODEL = re.compile(r"audio|search")


def countable_part(part):
    if not isinstance(part, dict):
        return False
    if part.get("type") == "text":
        return True
    image = part.get("image_url")
    url = image.get("url") if isinstance(image, dict) else image
    return part.get("type") == "image_url" and isinstance(url, str) and url.startswith("data:image/") and ";base64," in url


def countable(request):
    for m in request.get("messages", []):
        content = m.get("content")
        if isinstance(content, list):
            if not all(countable_part(p) for p in content):
                return False
        elif not isinstance(content, (str, type(None))):
            return False
    return True


def cut_images(request):
    for m in request.get("messages", []):
        if isinstance(m.get("content"), list):
            for part in m["content"]:
                image = part.get("image_url")
                if isinstance(image, dict):
                    image["url"] = cut_image(image["url"])
                elif isinstance(image, str):
                    part["image_url"] = cut_image(image)
    return request


def streamed_answer(response):
    """The usage of a streamed response (server-sent events, as `stream_options: {include_usage: true}` asks for): the
    last chunk's, or None."""
    raw = response.get("body")
    if isinstance(raw, dict):
        raw = raw.get("string")
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", "replace")
    if not isinstance(raw, str) or "data:" not in raw:
        return None
    for line in raw.splitlines():
        line = line.strip()
        if line.startswith("data:") and "prompt_tokens" in line:
            try:
                chunk = json.loads(line[len("data:"):])
            except ValueError:
                continue
            if isinstance(chunk, dict) and isinstance(chunk.get("usage"), dict):
                return {"usage": chunk["usage"]}
    return None


def answered_by_openai(answer):
    """Whether the response names an OpenAI model, or none: a proxy reached through an OpenAI client's base URL (the
    cassette still says api.openai.com) answers with its own model, and its own token count."""
    model = answer.get("model") if isinstance(answer, dict) else None
    if model is None:
        raw = answer.get("body") if isinstance(answer, dict) else None
        if isinstance(raw, dict):
            raw = raw.get("string")
        if isinstance(raw, bytes):
            raw = raw.decode("utf-8", "replace")
        found = re.search(r'"model"\s*:\s*"([^"]*)"', raw) if isinstance(raw, str) else None
        model = found.group(1) if found else None
    return not isinstance(model, str) or MODEL.match(model) is not None


def cases_of(repo, name):
    wanted = lambda text: "chat/completions" in text and ("prompt_tokens" in text or "!!binary" in text)
    for commit, path, index, request, body, answer, response in interactions(repo, wanted, with_response=True):
        if answer is None:
            answer = streamed_answer(response)
        uri = request.get("uri", "")
        if "chat/completions" not in uri or "api.openai.com" not in uri:
            continue
        if not isinstance(body, dict) or not isinstance(answer, dict):
            continue
        usage = answer.get("usage") or {}
        model = body.get("model")
        if "prompt_tokens" not in usage or not isinstance(model, str):
            continue
        if not MODEL.match(model) or EXCLUDED_MODEL.search(model) or not countable(body):
            continue
        if not answered_by_openai(answer if "model" in answer else response):
            continue
        yield {
            "source": {"repo": name, "path": path, "commit": commit, "interaction": index},
            "request": cut_images({k: body[k] for k in PROMPT_FIELDS if k in body}),
            "prompt_tokens": usage["prompt_tokens"],
        }


def main():
    write_cases(sys.argv, cases_of, "prompt_tokens")


if __name__ == "__main__":
    main()
