"""What the usage collectors share: reading VCR cassettes from a repository's
git HEAD (`git show`, so the commit recorded with every case is the one
read), decoding recorded bodies, cutting inline images to their headers, and
writing the deduplicated cases.

Needs Python 3 and PyYAML.
"""
import base64
import gzip
import json
import subprocess


def git(repo, *args, check=True):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=check).stdout


def json_body(part):
    """A recorded request's or response's JSON body (gzip-compressed ones, recorded as YAML !!binary, unpacked), or None."""
    body = part.get("parsed_body")
    if body is not None:
        return body
    raw = part.get("body")
    if isinstance(raw, dict):
        raw = raw.get("string")
    if isinstance(raw, bytes) and raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError):
            return None
    try:
        return json.loads(raw)
    except (TypeError, ValueError):
        return None


def is_cassette_path(path):
    """Whether a YAML file is where VCR keeps its recordings: a path that names cassettes, or a folder named `_vcr`
    (chatlas's)."""
    return "cassette" in path.lower() or "_vcr" in path.split("/")[:-1]


def interactions(repo, wanted, with_response=False):
    """(commit, path, index, request, request body, response body) of every recorded exchange in the cassettes whose
    text `wanted` accepts; with `with_response`, the recorded response as well (for a body that is not one JSON
    document, such as a stream of server-sent events)."""
    import yaml

    commit = git(repo, "rev-parse", "HEAD").strip()
    files = [f for f in git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
             if f.endswith((".yaml", ".yml")) and is_cassette_path(f)]
    for path in files:
        text = git(repo, "show", f"HEAD:{path}", check=False)  # a mirror may leave its largest files out
        if not wanted(text):
            continue
        try:
            doc = yaml.safe_load(text)
        except yaml.YAMLError:
            continue
        if not isinstance(doc, dict):
            continue
        # Python's vcrpy writes `interactions`; Ruby's VCR and R's vcr write `http_interactions`, in the same shape
        for index, interaction in enumerate(doc.get("interactions") or doc.get("http_interactions") or []):
            request, response = interaction.get("request") or {}, interaction.get("response") or {}
            found = (commit, path, index, request, json_body(request), json_body(response))
            yield found + (response,) if with_response else found


def write_cases(argv, cases_of, figure):
    """Collects `cases_of(repo_dir, name)` for every OWNER/NAME=REPO_DIR of argv[2:], keeps one copy of each request and figure, writes argv[1]."""
    out, repos = argv[1], argv[2:]
    seen, cases = set(), []
    for spec in repos:
        name, repo = spec.split("=", 1)
        for case in cases_of(repo, name):
            key = json.dumps([case["request"], case[figure]], sort_keys=True)
            if key not in seen:
                seen.add(key)
                cases.append(case)
    with open(out, "w") as f:
        json.dump(cases, f, ensure_ascii=False, separators=(",", ":"))
    print(f"{len(cases)} cases")


def header_length(data):
    """How many bytes of an image hold its pixel size: PNG, GIF and WebP headers, or a JPEG up to its frame header."""
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data) and data[i] == 0xFF:
            marker = data[i + 1]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                return i + 9
            i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
        return len(data)
    return 32


def cut_image(url):
    """A base64 `data:` URL of an image cut to the start of its data that holds its header (its pixel size, which is
    what the image costs; an image's bytes are not tokenized as text), so that a collected file stays small."""
    head, _, payload = url.partition(",")
    data = base64.b64decode(payload)
    keep = min(len(data), header_length(data) + 16)
    keep += (3 - keep % 3) % 3  # whole base64 groups, no padding in the middle of the data
    return head + "," + base64.b64encode(data[:keep]).decode("ascii")
