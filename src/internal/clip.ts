/**
 * Reading a clip's duration from its container, for audio and video alike:
 * the bytes of base64 data read where they lie (the head decoded once,
 * anything past it decoded in place, in plain base64 or wrapped in lines of
 * one length), and the containers both kinds come
 * in: ISO media (MP4, QuickTime, M4A, 3GP: the movie header's duration),
 * Matroska and WebM (the segment's duration, else the last cluster's time,
 * as browsers' MediaRecorder writes no duration), AVI (frames times the
 * frame time), AIFF (sample frames over the rate), raw AAC (its frames),
 * FLV (its last tag's time), ASF (its play duration) and MPEG program and
 * transport streams (their last presentation time less their first).
 *
 * Nothing here throws, whatever the input: a reader that loses its way
 * gives `undefined`, and the caller takes the clip by its size.
 *
 * @internal
 */
import { afterBlanks, base64Digit, decodeBase64 } from "./base64.js"

/**
 * `n` bytes of a clip from byte `at` (fewer at its end), or `undefined`
 * when they cannot be read.
 */
export type Read = (at: number, n: number) => Uint8Array | undefined

/** A clip given as base64 text: its first bytes, its length in bytes, and a reader of any bytes of it. */
export interface Clip {
  readonly head: Uint8Array
  readonly total: number
  readonly read: Read
  /** Up to `n` bytes of its end (fewer for a shorter clip), and the offset of the first of them. */
  readonly tail: (n: number) => { readonly bytes: Uint8Array; readonly at: number }
}

/** Bytes of a clip decoded up front (ID3 tags with cover art, a movie header at the front of an MP4). */
export const HEAD_BYTES = 262_144

/** About how many bytes the base64 text from `start` holds (line breaks inside it counted as data, a little over). */
const byteLength = (text: string, start: number): number => {
  let padding = 0
  for (let i = text.length - 1; i >= start && (text[i] === "=" || text[i] === "\n" || text[i] === "\r"); i--) if (text[i] === "=") padding++
  return Math.max(0, Math.floor(((text.length - start) * 3) / 4) - padding)
}

/** The base64 digits and padding of either alphabet, as a character class's body. */
const DIGITS = "A-Za-z0-9+/=_-"
/** A character that is not a base64 digit or padding, in either alphabet. */
const NOT_BASE64 = /[^A-Za-z0-9+/=_-]/g

/**
 * Where the base64 digits of text from `start` lie: how many there are, and
 * the place of the digit numbered `k`, for text without line breaks or
 * wrapped in lines of one length that holds whole groups of 4 (MIME's 76
 * digits and a line break) with breaks of one length between them, and
 * nothing but blanks after the last; `undefined` for any other text (no
 * byte's place past the head can be known). Linear in the text whatever the
 * lines' length: a search for each line's break alone cost 1 s per 50 MB of
 * lines of 4 digits.
 */
const digitLayout = (text: string, start: number): { readonly digits: number; readonly place: (k: number) => number } | undefined => {
  const n = text.length
  // the platform's search finds the first character that is not a digit: none in plain base64
  NOT_BASE64.lastIndex = start
  const first = NOT_BASE64.exec(text)
  if (first === null) return { digits: n - start, place: (k) => start + k }
  const line = first.index - start
  let i = first.index
  while (i < n && !isDigit(text.charCodeAt(i))) i++
  // no digit after it: one line, blanks at its end (unpadded base64 need not hold whole groups of 4)
  if (i === n) return { digits: line, place: (k) => start + k }
  const gap = i - first.index
  if (line === 0 || line % 4 !== 0) return undefined
  const place = (k: number) => start + Math.floor(k / line) * (line + gap) + (k % line)
  // whole lines and their breaks passed over by the platform's searches: a long line by a search for its
  // break, short ones (where a search costs more than the line) by a pattern of 4 KB of them at a time
  let full = 1
  if (line >= 48) {
    for (; ; i += line + gap, full++) {
      NOT_BASE64.lastIndex = i
      if (NOT_BASE64.exec(text)?.index !== i + line || !isBreak(text, i + line, gap)) break
    }
  } else {
    const count = Math.floor(4_096 / (line + gap)) + 1
    const block = new RegExp(`(?:[${DIGITS}]{${line}}[^${DIGITS}]{${gap}}){${count}}`, "y")
    for (block.lastIndex = i; block.test(text); full += count) i = block.lastIndex
  }
  // the lines left, one at a time: a line's digits (at most a line's), then the characters up to the next digit
  for (;; full++) {
    let j = i
    for (const end = Math.min(n, i + line); j < end && isDigit(text.charCodeAt(j));) j++
    if (j === n) return { digits: full * line + (j - i), place }
    let k = j
    while (k < n && !isDigit(text.charCodeAt(k))) k++
    // the last line: a break's length of anything after it, or blanks
    if (k === n) return k - j <= gap || /^\s*$/.test(text.slice(j)) ? { digits: full * line + (j - i), place } : undefined
    // a line or a break of another length
    if (j - i !== line || k - j !== gap) return undefined
    i = k
  }
}

/** Whether `gap` characters from `at` are not digits, and a digit follows them. */
const isBreak = (text: string, at: number, gap: number): boolean => {
  for (let g = at; g < at + gap; g++) if (isDigit(text.charCodeAt(g))) return false
  return isDigit(text.charCodeAt(at + gap))
}

/** A base64 digit of either alphabet, or padding. */
const isDigit = (c: number): boolean => c === 61 || base64Digit(c) >= 0

/**
 * The clip whose base64 text starts at `from` in `text` (blanks there skipped). Bytes past the
 * head are decoded from the digits where they lie, which needs text without
 * line breaks or wrapped in lines of one length (else they cannot be read).
 */
export const clipOfBase64 = (text: string, from: number): Clip => {
  // a payload that starts with a line break (`data:...;base64,\n`) is laid out from its first digit
  const start = afterBlanks(text, from)
  const head = decodeBase64(text, start, HEAD_BYTES)
  // the digits' layout, worked out only when a byte past the head is read (it reads the whole text)
  let layout: ReturnType<typeof digitLayout> | null = null
  const placeOf = (k: number): number | undefined => {
    if (layout === null) layout = digitLayout(text, start)
    return layout?.place(k)
  }
  const total = head.length < HEAD_BYTES ? head.length : byteLength(text, start)
  const read: Read = (at, n) => {
    if (!(at >= 0) || !(n > 0)) return undefined
    // the head holds them, or is all of the clip
    if (at + n <= head.length || head.length < HEAD_BYTES) return head.subarray(Math.min(at, head.length), at + n)
    if (at >= total) return new Uint8Array(0)
    const group = Math.floor(at / 3)
    const from = placeOf(group * 4)
    if (from === undefined) return undefined
    return decodeBase64(text, from, n + 3).subarray(at - group * 3, at - group * 3 + n)
  }
  const tail = (n: number) => {
    if (layout === null) layout = digitLayout(text, start)
    // not known: nothing of the end can be read (and a search widening its tail stops, as at the start)
    if (layout === undefined) return { bytes: new Uint8Array(0), at: 0 }
    // from a whole number of base64 groups after `start`
    const groups = Math.max(0, Math.ceil(layout.digits / 4) - Math.ceil(n / 3))
    return { bytes: decodeBase64(text, layout.place(groups * 4), n + 3), at: groups * 3 }
  }
  return { head, total, read, tail }
}

/** `n` bytes of `b` from `at` as text, a character a byte (a chunk id, a tag). */
export const ascii = (b: Uint8Array, at: number, n: number): string => {
  let s = ""
  for (let i = at; i < at + n && i < b.length; i++) s += String.fromCharCode(b[i]!)
  return s
}
/** Unsigned integers at `at`: 16 bits big-endian, 32 bits little- and big-endian, 64 bits big-endian (exact below 2^53). */
export const u16be = (b: Uint8Array, at: number): number => (b[at]! << 8) | b[at + 1]!
export const u32le = (b: Uint8Array, at: number): number => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) + b[at + 3]! * 0x1000000
export const u32be = (b: Uint8Array, at: number): number => b[at]! * 0x1000000 + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!)
const u64be = (b: Uint8Array, at: number): number => u32be(b, at) * 2 ** 32 + u32be(b, at + 4)

/** Whether 4 bytes at `at` are printable characters (a chunk or box type; else a walk has lost its way). */
const isFourCC = (b: Uint8Array, at = 0): boolean => {
  if (at + 4 > b.length) return false
  for (let i = at; i < at + 4; i++) if (!(b[i]! >= 0x20 && b[i]! <= 0x7e)) return false
  return true
}

/** The most boxes, chunks or elements a walk reads before it gives up (a hostile file of empty ones). */
const MAX_STEPS = 1_000

/**
 * The most seconds a byte of a clip can hold: one. No codec comes near it
 * (Opus at its lowest is hundreds of bytes a second), so a header that
 * claims more is damaged, and the clip is taken by its size.
 */
const MAX_SECONDS_PER_BYTE = 1

/** A duration read from a header when it is one a clip of `total` bytes can have, else `undefined`. */
export const plausibleSeconds = (seconds: number | undefined, total: number): number | undefined =>
  seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 && seconds <= Math.max(1, total) * MAX_SECONDS_PER_BYTE ? seconds : undefined

// ---------------------------------------------------------------------------
// ISO media: MP4, QuickTime, M4A, 3GP
// ---------------------------------------------------------------------------

/** The box types an ISO media file starts with. */
const ISO_FIRST_BOXES = new Set(["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot", "styp"])

/** Whether a clip's first bytes are an ISO media file's first box. */
export const isIsoMedia = (head: Uint8Array): boolean => head.length >= 8 && ISO_FIRST_BOXES.has(ascii(head, 4, 4))

/** A box: its type, start, size (with its header) and header's length. */
interface Box {
  readonly type: string
  readonly at: number
  readonly size: number
  readonly header: number
}
/**
 * The boxes from `from` to `end` (at most `steps`), as far as they can be
 * read, or `undefined` when not even the first box's header can be read or
 * is one.
 */
const boxes = (read: Read, from: number, end: number, steps = MAX_STEPS): Array<Box> | undefined => {
  const out: Array<Box> = []
  for (let at = from; at + 8 <= end && out.length < steps;) {
    const h = read(at, 16)
    if (h === undefined || h.length < 8 || !isFourCC(h, 4)) return out.length > 0 ? out : undefined
    let size = u32be(h, 0)
    let header = 8
    if (size === 1) {
      if (h.length < 16) return out
      size = u64be(h, 8)
      header = 16
    } else if (size === 0) size = end - at
    if (size < header) return out
    out.push({ type: ascii(h, 4, 4), at, size, header })
    at += size
  }
  return out
}

/** A full box's 32-bit (version 0) or 64-bit (version 1) time field at `at`, in its time scale's units (`mvhd`, `mehd`, `tfdt`). */
const fullBoxTime = (b: Uint8Array, at: number, version1: boolean): number => (version1 ? u64be(b, at) : u32be(b, at))

/**
 * An ISO media file's duration: the movie header's duration over its time
 * scale; for a fragmented file, whose movie header covers only the samples
 * before its first fragment, the movie extends header's fragment duration,
 * else the end of its last fragment. The movie box may be at the end of the
 * file (a file written before its index), read in place.
 */
export const isoMediaSeconds = (read: Read, total: number): number | undefined => {
  const top = boxes(read, 0, total)
  const moov = top?.find((b) => b.type === "moov")
  if (moov === undefined) return undefined
  const inner = boxes(read, moov.at + moov.header, Math.min(total, moov.at + moov.size))
  const mvhd = inner?.find((b) => b.type === "mvhd")
  if (mvhd === undefined) return undefined
  const h = read(mvhd.at + mvhd.header, 32)
  if (h === undefined || h.length < 32) return undefined
  const version1 = h[0] === 1
  const scale = u32be(h, version1 ? 20 : 12)
  if (scale === 0) return undefined
  const duration = fullBoxTime(h, version1 ? 24 : 16, version1)
  // all ones: not known (a live recording)
  const movie = duration > 0 && duration !== 0xffffffff && duration !== 2 ** 64 - 1 ? duration / scale : undefined
  const mvex = inner?.find((b) => b.type === "mvex")
  if (mvex === undefined) return movie
  // a fragmented file: the movie header's duration covers only the samples in the movie box (none with
  // `empty_moov`, the first fragment's with `frag_keyframe` alone); the whole is the movie extends header's
  const extends_ = boxes(read, mvex.at + mvex.header, mvex.at + mvex.size)
  const mehd = extends_?.find((b) => b.type === "mehd")
  const m = mehd === undefined ? undefined : read(mehd.at + mehd.header, 12)
  const fragments = m === undefined || m.length < 8 ? 0 : fullBoxTime(m, 4, m[0] === 1 && m.length >= 12)
  if (fragments > 0) return Math.max(fragments / scale, movie ?? 0)
  // a fragmented file written as it was recorded (a browser's MediaRecorder, a pipe): its fragments' times
  const ends = fragmentsSeconds(read, total, top ?? [], inner ?? [], extends_ ?? [])
  return ends === undefined ? movie : Math.max(ends, movie ?? 0)
}

/** The most top-level boxes a fragmented file's walk reads (two a fragment). */
const MAX_FRAGMENT_BOXES = 50_000
/** The most bytes of a fragment's header read (a track run lists each sample). */
const MAX_MOOF_BYTES = 4_194_304

/** A full box's fields: the bytes after its header, version and flags first. */
const fields = (read: Read, box: Box, max = 64): Uint8Array | undefined => read(box.at + box.header, Math.min(max, box.size - box.header))

/**
 * A fragmented file's duration: the end of its last fragment of each track
 * (a fragment's decode time, else the end of the one before, plus its
 * samples' durations) over the track's time scale, the longest track's.
 */
const fragmentsSeconds = (read: Read, total: number, top: ReadonlyArray<Box>, movie: ReadonlyArray<Box>, extends_: ReadonlyArray<Box>): number | undefined => {
  // each track's time scale (its media header's) and default sample duration (its track extends box's)
  const scales = new Map<number, number>()
  for (const trak of movie) {
    if (trak.type !== "trak") continue
    const parts = boxes(read, trak.at + trak.header, trak.at + trak.size) ?? []
    const tkhd = parts.find((b) => b.type === "tkhd")
    const mdia = parts.find((b) => b.type === "mdia")
    const mdhd = mdia === undefined ? undefined : boxes(read, mdia.at + mdia.header, mdia.at + mdia.size)?.find((b) => b.type === "mdhd")
    const t = tkhd === undefined ? undefined : fields(read, tkhd)
    const h = mdhd === undefined ? undefined : fields(read, mdhd)
    if (t === undefined || h === undefined || t.length < 24 || h.length < 24) continue
    const id = u32be(t, t[0] === 1 ? 20 : 12)
    const scale = u32be(h, h[0] === 1 ? 20 : 12)
    if (scale > 0) scales.set(id, scale)
  }
  const defaults = new Map<number, number>()
  for (const trex of extends_) {
    const f = trex.type === "trex" ? fields(read, trex) : undefined
    if (f !== undefined && f.length >= 16) defaults.set(u32be(f, 4), u32be(f, 12))
  }
  const ends = new Map<number, number>()
  // the top-level boxes past those the movie box was looked for in, read on from where that walk stopped
  const last = top.at(-1)
  const rest = top.length < MAX_STEPS || last === undefined ? [] : boxes(read, last.at + last.size, total, MAX_FRAGMENT_BOXES - top.length) ?? []
  for (const moof of [...top, ...rest]) {
    if (moof.type !== "moof" || moof.size > MAX_MOOF_BYTES) continue
    const bytes = read(moof.at, moof.size)
    if (bytes === undefined) return undefined
    const local: Read = (at, n) => bytes.subarray(at - moof.at, at - moof.at + n)
    for (const traf of boxes(local, moof.at + moof.header, moof.at + moof.size) ?? []) {
      if (traf.type !== "traf") continue
      const parts = boxes(local, traf.at + traf.header, traf.at + traf.size) ?? []
      const tfhd = parts.find((b) => b.type === "tfhd")
      const h = tfhd === undefined ? undefined : fields(local, tfhd)
      if (h === undefined || h.length < 8) continue
      const track = u32be(h, 4)
      const flags = u32be(h, 0) & 0xffffff
      // base data offset (8 bytes), sample description index (4), then the default duration
      const durationAt = 8 + (flags & 0x1 ? 8 : 0) + (flags & 0x2 ? 4 : 0)
      const fallback = flags & 0x8 && h.length >= durationAt + 4 ? u32be(h, durationAt) : defaults.get(track) ?? 0
      const tfdt = parts.find((b) => b.type === "tfdt")
      const d = tfdt === undefined ? undefined : fields(local, tfdt)
      let time = d !== undefined && d.length >= 8 ? fullBoxTime(d, 4, d[0] === 1 && d.length >= 12) : ends.get(track) ?? 0
      for (const trun of parts) {
        if (trun.type !== "trun") continue
        const r = fields(local, trun, trun.size)
        if (r === undefined || r.length < 8) continue
        const runFlags = u32be(r, 0) & 0xffffff
        const count = u32be(r, 4)
        if (!(runFlags & 0x100)) {
          time += count * fallback
          continue
        }
        // each sample's entry: duration, size, flags, composition offset, as the flags say
        const entry = 4 * ((runFlags & 0x100 ? 1 : 0) + (runFlags & 0x200 ? 1 : 0) + (runFlags & 0x400 ? 1 : 0) + (runFlags & 0x800 ? 1 : 0))
        let at = 8 + (runFlags & 0x1 ? 4 : 0) + (runFlags & 0x4 ? 4 : 0)
        for (let i = 0; i < count && at + 4 <= r.length; i++, at += entry) time += u32be(r, at)
      }
      ends.set(track, time)
    }
  }
  let longest: number | undefined
  for (const [track, end] of ends) {
    const scale = scales.get(track)
    if (scale !== undefined && end > 0) longest = Math.max(longest ?? 0, end / scale)
  }
  return longest
}

// ---------------------------------------------------------------------------
// Matroska and WebM
// ---------------------------------------------------------------------------

const EBML = 0x1a45dfa3
const SEGMENT = 0x18538067
const INFO = 0x1549a966
const TIMESTAMP_SCALE = 0x2ad7b1
const DURATION = 0x4489
const CLUSTER = 0x1f43b675
const CLUSTER_TIMESTAMP = 0xe7
const SIMPLE_BLOCK = 0xa3
const BLOCK_GROUP = 0xa0
const BLOCK = 0xa1

/** Whether a clip starts with an EBML header (Matroska, WebM). */
export const isMatroska = (head: Uint8Array): boolean => head.length >= 4 && u32be(head, 0) === EBML

/** An element id at `at` (its marker bits kept, as specifications write ids) and its length, or `undefined`. */
const elementId = (b: Uint8Array, at: number): { readonly id: number; readonly length: number } | undefined => {
  const first = b[at]
  if (first === undefined || first === 0) return undefined
  const length = first >= 0x80 ? 1 : first >= 0x40 ? 2 : first >= 0x20 ? 3 : first >= 0x10 ? 4 : 0
  if (length === 0 || at + length > b.length) return undefined
  let id = 0
  for (let i = 0; i < length; i++) id = id * 256 + b[at + i]!
  return { id, length }
}

/** An element's data size at `at` and its length; the size is `-1` for an unknown one (all value bits set). */
const elementSize = (b: Uint8Array, at: number): { readonly size: number; readonly length: number } | undefined => {
  const first = b[at]
  if (first === undefined || first === 0) return undefined
  let length = 1
  while (length <= 8 && (first & (0x100 >> length)) === 0) length++
  if (length > 8 || at + length > b.length) return undefined
  let size = first & ((0x100 >> length) - 1)
  let allOnes = size === (0x100 >> length) - 1
  for (let i = 1; i < length; i++) {
    size = size * 256 + b[at + i]!
    if (b[at + i] !== 0xff) allOnes = false
  }
  return { size: allOnes ? -1 : size, length }
}

/** An unsigned integer or a float element's value (`bytes` of big-endian data), or `undefined`. */
const uint = (b: Uint8Array, at: number, bytes: number): number | undefined => {
  if (bytes < 1 || bytes > 8 || at + bytes > b.length) return undefined
  let n = 0
  for (let i = 0; i < bytes; i++) n = n * 256 + b[at + i]!
  return n
}
const float = (b: Uint8Array, at: number, bytes: number): number | undefined => {
  if ((bytes !== 4 && bytes !== 8) || at + bytes > b.length) return undefined
  const view = new DataView(b.buffer, b.byteOffset + at, bytes)
  return bytes === 4 ? view.getFloat32(0) : view.getFloat64(0)
}

/** The elements from `from` to `end` of `b` (at most `steps`): id, data start and size (`-1` unknown); stops where one cannot be read. */
const elements = (b: Uint8Array, from: number, end: number, steps = MAX_STEPS): Array<{ readonly id: number; readonly data: number; readonly size: number }> => {
  const out: Array<{ id: number; data: number; size: number }> = []
  for (let at = from; at < end && out.length < steps;) {
    const id = elementId(b, at)
    const size = id === undefined ? undefined : elementSize(b, at + id.length)
    if (id === undefined || size === undefined) break
    const data = at + id.length + size.length
    out.push({ id: id.id, data, size: size.size })
    // an element of unknown size is a master whose children follow: the walk goes on into them
    at = size.size < 0 ? data : data + size.size
  }
  return out
}

/** The bytes of a clip's end first searched for its last cluster (four times as many each time none starts in them). */
const MATROSKA_TAIL = 262_144
/** The most elements of the last cluster read: a cluster spans at most 32.767 s, and this is 2,000 blocks a second. */
const MAX_CLUSTER_ELEMENTS = 65_536

/**
 * A Matroska or WebM clip's duration: the segment information's duration
 * times its time scale; for a stream that never wrote one (a browser's
 * MediaRecorder), the time of the last block of its last cluster, searched
 * for from the end (a live recording's cluster can be megabytes).
 */
export const matroskaSeconds = (clip: Clip): number | undefined => {
  const b = clip.head
  let scale = 1_000_000
  const segment = elements(b, 0, b.length).find((e) => e.id === SEGMENT)
  for (const e of segment === undefined ? [] : elements(b, segment.data, b.length)) {
    if (e.id === INFO) {
      const end = e.size < 0 ? b.length : Math.min(b.length, e.data + e.size)
      let duration: number | undefined
      for (const f of elements(b, e.data, end)) {
        if (f.id === TIMESTAMP_SCALE) scale = uint(b, f.data, f.size) ?? scale
        else if (f.id === DURATION) duration = float(b, f.data, f.size)
      }
      if (duration !== undefined && Number.isFinite(duration) && duration > 0) return (duration * scale) / 1e9
      break
    }
    if (e.id === CLUSTER) break
  }
  // each wider tail searched only before the last one's start
  let searched = Infinity
  for (let n = MATROSKA_TAIL;; n *= 4) {
    const { at, bytes } = clip.tail(n)
    const seconds = lastClusterSeconds(bytes, scale, searched - at)
    if (seconds !== undefined || at === 0) return seconds
    searched = at
  }
}

/** The time of the last block of the last cluster that starts in `b` before `before`, or `undefined`. */
const lastClusterSeconds = (b: Uint8Array, scale: number, before: number): number | undefined => {
  for (let at = Math.min(b.length - 8, before - 1); at >= 0; at--) {
    if (b[at] !== 0x1f || u32be(b, at) !== CLUSTER) continue
    const size = elementSize(b, at + 4)
    if (size === undefined) continue
    const start = at + 4 + size.length
    // a cluster's first child is its timestamp: anything else is four bytes of data that looked like an id
    const end = size.size < 0 ? b.length : Math.min(b.length, start + size.size)
    const first = b[start] === CLUSTER_TIMESTAMP ? elements(b, start, end, 1)[0] : undefined
    const time = first === undefined ? undefined : uint(b, first.data, first.size)
    if (first === undefined || time === undefined) continue
    // every block of it (a cluster holds up to 32.767 s: 1,600 blocks of 20 ms audio)
    let last = 0
    for (const c of elements(b, first.data + first.size, end, MAX_CLUSTER_ELEMENTS)) {
      const block = c.id === SIMPLE_BLOCK ? c : c.id === BLOCK_GROUP ? elements(b, c.data, Math.min(b.length, c.data + Math.max(0, c.size))).find((x) => x.id === BLOCK) : undefined
      if (block === undefined) continue
      // a block: its track number, then its time relative to the cluster's, a signed 16-bit number
      const track = elementSize(b, block.data)
      if (track === undefined || block.data + track.length + 2 > b.length) continue
      const relative = (u16be(b, block.data + track.length) << 16) >> 16
      if (relative > last) last = relative
    }
    return ((time + last) * scale) / 1e9
  }
  return undefined
}

// ---------------------------------------------------------------------------
// RIFF AVI and AIFF
// ---------------------------------------------------------------------------

/** Whether a clip is a RIFF AVI file. */
export const isAvi = (head: Uint8Array): boolean => ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 4) === "AVI "

/**
 * An AVI file's duration: its longest stream's (a stream header's length in
 * units of its scale over its rate), else its main header's frame count
 * times its frame time, which counts video frames only, where audio may run
 * longer. The header list is read from the head.
 */
export const aviSeconds = (head: Uint8Array): number | undefined => {
  // RIFF AVI, then LIST hdrl, whose first chunk is the main header, then a LIST strl a stream, its stream header first
  if (ascii(head, 12, 4) !== "LIST" || ascii(head, 20, 4) !== "hdrl" || ascii(head, 24, 4) !== "avih" || head.length < 56) return undefined
  const microseconds = u32le(head, 32)
  const frames = u32le(head, 48)
  let seconds = microseconds > 0 && frames > 0 ? (microseconds * frames) / 1e6 : undefined
  // past the head a field reads as NaN, which no comparison holds for
  const end = 20 + u32le(head, 16)
  for (let at = 24, steps = 0; at + 56 <= end && steps < MAX_STEPS; steps++) {
    const size = u32le(head, at + 4)
    if (ascii(head, at, 4) === "LIST" && ascii(head, at + 8, 8) === "strlstrh") {
      // the stream header's scale, rate and length, 20, 24 and 32 bytes into its data
      const length = (u32le(head, at + 52) * u32le(head, at + 40)) / u32le(head, at + 44)
      if (length > 0 && length < Infinity) seconds = Math.max(seconds ?? 0, length)
    }
    at += 8 + size + (size & 1)
  }
  return seconds
}

// ---------------------------------------------------------------------------
// FLV, ASF (WMV) and MPEG program and transport streams
// ---------------------------------------------------------------------------

/** Whether a clip is a Flash video. */
export const isFlv = (head: Uint8Array): boolean => ascii(head, 0, 3) === "FLV" && head[3] === 1

/**
 * A Flash video's duration: the time of its last tag, which the file's last
 * four bytes locate (each tag is followed by its size).
 */
export const flvSeconds = (clip: Clip): number | undefined => {
  // the tail runs to the end of the text (not compared with `total`, which counts a wrapped text's line breaks as data)
  const { bytes } = clip.tail(65_536)
  if (bytes.length < 4) return undefined
  const size = u32be(bytes, bytes.length - 4)
  const tag = bytes.length - 4 - size
  if (size < 11 || tag < 0) return undefined
  const type = bytes[tag]! & 0x1f
  if (type !== 8 && type !== 9 && type !== 18) return undefined
  // the time: 24 bits of milliseconds and 8 more above them
  const ms = ((bytes[tag + 4]! << 16) | (bytes[tag + 5]! << 8) | bytes[tag + 6]!) + bytes[tag + 7]! * 2 ** 24
  return ms / 1000
}

const ASF_HEADER = [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c]
const ASF_FILE_PROPERTIES = [0xa1, 0xdc, 0xab, 0x8c, 0x47, 0xa9, 0xcf, 0x11, 0x8e, 0xe4, 0x00, 0xc0, 0x0c, 0x20, 0x53, 0x65]
const guidAt = (b: Uint8Array, at: number, guid: ReadonlyArray<number>): boolean => guid.every((x, i) => b[at + i] === x)
const u64le = (b: Uint8Array, at: number): number => u32le(b, at) + u32le(b, at + 4) * 2 ** 32

/** Whether a clip is an ASF file (WMV, WMA). */
export const isAsf = (head: Uint8Array): boolean => head.length >= 30 && guidAt(head, 0, ASF_HEADER)

/** An ASF file's duration: its file properties' play duration (100 ns units) less its preroll (milliseconds). */
export const asfSeconds = (head: Uint8Array): number | undefined => {
  const end = Math.min(head.length, 30 + u64le(head, 16))
  for (let at = 30, steps = 0; at + 24 <= end && steps < MAX_STEPS; steps++) {
    const size = u64le(head, at + 16)
    if (size < 24) return undefined
    if (guidAt(head, at, ASF_FILE_PROPERTIES)) {
      if (at + 88 > head.length) return undefined
      const seconds = u64le(head, at + 64) / 1e7 - u64le(head, at + 80) / 1000
      return seconds > 0 ? seconds : undefined
    }
    at += size
  }
  return undefined
}

/** Whether a clip is an MPEG transport stream (a sync byte every 188 bytes) or program stream (a pack header first). */
export const isMpegStream = (head: Uint8Array): boolean =>
  (head.length >= 377 && head[0] === 0x47 && head[188] === 0x47 && head[376] === 0x47) || (head.length >= 4 && u32be(head, 0) === 0x1ba)

/** The presentation times (90 kHz) of the audio and video packets that start in `b`: the first and the last. */
const presentationTimes = (b: Uint8Array): { readonly first: number; readonly last: number } | undefined => {
  let first: number | undefined
  let last: number | undefined
  for (let at = 0; at + 14 <= b.length; at++) {
    // a packet start code and an audio or video stream id, a header with its marker bits, and a time with its own
    if (b[at] !== 0 || b[at + 1] !== 0 || b[at + 2] !== 1) continue
    const id = b[at + 3]!
    if (id < 0xc0 || id > 0xef) continue
    let p: number
    if ((b[at + 6]! & 0xc0) === 0x80) {
      // an MPEG-2 header: flags (a time present), its length, then the time
      if ((b[at + 7]! & 0x80) === 0) continue
      p = at + 9
    } else {
      // an MPEG-1 header: stuffing, a buffer size, then the time
      p = at + 6
      for (let stuffing = 0; stuffing < 16 && b[p] === 0xff; stuffing++) p++
      if ((b[p]! & 0xc0) === 0x40) p += 2
      if (p + 5 > b.length) continue
    }
    if ((b[p]! & 0x01) !== 1 || (b[p + 2]! & 0x01) !== 1 || (b[p + 4]! & 0x01) !== 1 || (b[p]! & 0xe0) !== 0x20) continue
    const time = ((b[p]! >> 1) & 0x07) * 2 ** 30 + ((b[p + 1]! << 7) | (b[p + 2]! >> 1)) * 2 ** 15 + ((b[p + 3]! << 7) | (b[p + 4]! >> 1))
    first ??= time
    last = Math.max(last ?? time, time)
  }
  return first === undefined || last === undefined ? undefined : { first, last }
}

/**
 * An MPEG stream's duration: its last presentation time less its first
 * (read from its first and last 256 KB), the clock's wrap after 26.5 hours
 * undone.
 */
export const mpegStreamSeconds = (clip: Clip): number | undefined => {
  const start = presentationTimes(clip.head)
  const end = presentationTimes(clip.tail(HEAD_BYTES).bytes)
  if (start === undefined || end === undefined) return undefined
  let ticks = end.last - start.first
  if (ticks < 0) ticks += 2 ** 33
  return ticks > 0 ? ticks / 90_000 : undefined
}

/** Whether a clip is an AIFF or AIFF-C file. */
export const isAiff = (head: Uint8Array): boolean => ascii(head, 0, 4) === "FORM" && (ascii(head, 8, 4) === "AIFF" || ascii(head, 8, 4) === "AIFC")

/** An 80-bit IEEE extended float (AIFF's sample rate). */
const extended = (b: Uint8Array, at: number): number => {
  const exponent = (u16be(b, at) & 0x7fff) - 16383
  const mantissa = u32be(b, at + 2) * 2 ** 32 + u32be(b, at + 6)
  return (b[at]! & 0x80 ? -1 : 1) * mantissa * 2 ** (exponent - 63)
}

/**
 * The chunks of a RIFF (WAV, sizes little-endian) or IFF (AIFF, big-endian)
 * file from byte 12: each one's id, its first `want` bytes (header
 * included) and start, given to `visit` until it returns a value, which is
 * the walk's. `undefined` when no chunk gives one, or a chunk's header
 * cannot be read or is not one.
 */
export const findInChunks = <A>(
  read: Read,
  total: number,
  bigEndian: boolean,
  want: number,
  visit: (id: string, h: Uint8Array, at: number) => A | undefined
): A | undefined => {
  for (let at = 12, steps = 0; at + 8 <= total && steps < MAX_STEPS; steps++) {
    const h = read(at, want)
    if (h === undefined || h.length < 8 || !isFourCC(h)) return undefined
    const found = visit(ascii(h, 0, 4), h, at)
    if (found !== undefined) return found
    const size = bigEndian ? u32be(h, 4) : u32le(h, 4)
    at += 8 + size + (size & 1)
  }
  return undefined
}

/** An AIFF file's duration: its common chunk's sample frames over its sample rate. */
export const aiffSeconds = (read: Read, total: number): number | undefined =>
  findInChunks(read, total, true, 26, (id, h, at) => {
    if (id !== "COMM" || h.length < 26) return undefined
    const rate = extended(h, 16)
    // in AIFF-C with IMA ADPCM the count is of packets, of 64 frames each
    const frames = u32be(h, 10) * (ascii(read(at + 26, 4) ?? new Uint8Array(0), 0, 4) === "ima4" ? 64 : 1)
    return rate > 0 && Number.isFinite(rate) ? frames / rate : undefined
  })

// ---------------------------------------------------------------------------
// ADTS (raw AAC)
// ---------------------------------------------------------------------------

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350] as const

/** An ADTS frame header at `at`: its sample rate, length in bytes and samples, or `undefined` for none. */
const adtsFrame = (b: Uint8Array, at: number) => {
  if (at + 7 > b.length || b[at] !== 0xff || (b[at + 1]! & 0xf6) !== 0xf0) return undefined
  const rate = AAC_RATES[(b[at + 2]! >> 2) & 15]
  const bytes = ((b[at + 3]! & 3) << 11) | (b[at + 4]! << 3) | (b[at + 5]! >> 5)
  if (rate === undefined || bytes < 7) return undefined
  return { rate, bytes, samples: 1024 * ((b[at + 6]! & 3) + 1) }
}

/** Whether `b` holds an ADTS frame at `at` followed by another (or the clip's end). */
export const isAdts = (b: Uint8Array, at: number, total: number): boolean => {
  const frame = adtsFrame(b, at)
  if (frame === undefined) return false
  const next = at + frame.bytes
  return next >= total || adtsFrame(b, next)?.rate === frame.rate
}

/**
 * A raw AAC stream's duration: the frames of its first bytes walked, their
 * samples per byte taken for the whole stream (its length from `from` on).
 */
export const adtsSeconds = (b: Uint8Array, from: number, total: number): number | undefined => {
  let samples = 0
  let at = from
  let rate = 0
  for (let frames = 0; frames < 100_000; frames++) {
    const frame = adtsFrame(b, at)
    if (frame === undefined || (rate !== 0 && frame.rate !== rate)) break
    rate = frame.rate
    samples += frame.samples
    at += frame.bytes
  }
  if (rate === 0 || at <= from) return undefined
  const walked = Math.min(at, b.length) - from
  return ((samples / rate) * (total - from)) / Math.max(walked, 1)
}
