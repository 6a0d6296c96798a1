/**
 * The characters a WOFF2 font maps to glyphs, read from its cmap table: what a test holds a
 * shipped font subset to. WOFF2 (W3C): a 48-byte header, a table directory of variable-length
 * entries, then one Brotli stream of the tables in directory order. The cmap table is never
 * transformed, so it is read as it is once the stream is decompressed.
 */

import { brotliDecompressSync } from "node:zlib";

const GLYF = 10;
const LOCA = 11;
const ARBITRARY_TAG = 63;

function readBase128(buf: Buffer, at: number): [value: number, next: number] {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = buf.readUInt8(at + i);
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, at + i + 1];
  }
  throw new Error("UIntBase128 longer than 5 bytes");
}

function cmapTable(font: Buffer): Buffer {
  if (font.subarray(0, 4).toString("latin1") !== "wOF2") throw new Error("not a WOFF2 file");
  if (font.readUInt32BE(4) === 0x74746366) throw new Error("font collections are not read here");
  const numTables = font.readUInt16BE(12);
  const compressedSize = font.readUInt32BE(20);
  let at = 48;
  let offset = 0;
  let cmap: { offset: number; length: number } | null = null;
  for (let i = 0; i < numTables; i++) {
    const flags = font.readUInt8(at++);
    const tagIndex = flags & 0x3f;
    const version = flags >> 6;
    if (tagIndex === ARBITRARY_TAG) at += 4;
    const [origLength, next] = readBase128(font, at);
    at = next;
    // glyf and loca are transformed unless version 3; every other table only when version is not 0.
    const transformed = tagIndex === GLYF || tagIndex === LOCA ? version !== 3 : version !== 0;
    let length = origLength;
    if (transformed) [length, at] = readBase128(font, at);
    if (tagIndex === 0) cmap = { offset, length };
    offset += length;
  }
  if (!cmap) throw new Error("no cmap table");
  const tables = brotliDecompressSync(font.subarray(at, at + compressedSize));
  return tables.subarray(cmap.offset, cmap.offset + cmap.length);
}

/** Every code point of the best Unicode subtable: format 12 (full repertoire) if present, else format 4 (BMP). */
export function woff2Characters(font: Buffer): Set<number> {
  const cmap = cmapTable(font);
  const subtables = Array.from({ length: cmap.readUInt16BE(2) }, (_, i) => {
    const offset = cmap.readUInt32BE(4 + i * 8 + 4);
    return { platform: cmap.readUInt16BE(4 + i * 8), offset, format: cmap.readUInt16BE(offset) };
  }).filter((s) => s.platform === 0 || s.platform === 3);
  const chosen = subtables.find((s) => s.format === 12) ?? subtables.find((s) => s.format === 4);
  if (!chosen) throw new Error("no Unicode cmap subtable");
  const codes = new Set<number>();
  const at = chosen.offset;
  if (chosen.format === 12) {
    const groups = cmap.readUInt32BE(at + 12);
    for (let g = 0; g < groups; g++) {
      const start = cmap.readUInt32BE(at + 16 + g * 12);
      const end = cmap.readUInt32BE(at + 20 + g * 12);
      for (let c = start; c <= end; c++) codes.add(c);
    }
    return codes;
  }
  const segments = cmap.readUInt16BE(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let s = 0; s < segments; s++) {
    const end = cmap.readUInt16BE(ends + s * 2);
    const start = cmap.readUInt16BE(starts + s * 2);
    const delta = cmap.readInt16BE(deltas + s * 2);
    const rangeOffset = cmap.readUInt16BE(rangeOffsets + s * 2);
    for (let c = start; c <= end && c !== 0xffff; c++) {
      const glyph = rangeOffset === 0 ? (c + delta) & 0xffff : cmap.readUInt16BE(rangeOffsets + s * 2 + rangeOffset + (c - start) * 2);
      if (glyph !== 0) codes.add(c);
    }
  }
  return codes;
}
