import { deflateSync } from "node:zlib";
import QRCode from "qrcode";

/**
 * QR codes as PNG data URIs, drawn on the side thread and, when there is none, on the main thread
 * (lib/domain/payments/eip681.ts): one module for both, so the two draw the same bytes. (The rules of
 * this folder: entry.ts.)
 */

/** The symbol of `text`: one byte-mode segment, level M, the given mask (see eip681.ts `QR_MASK_PATTERN`). */
export function qrModules(text: string, maskPattern: QRCode.QRCodeMaskPattern): QRCode.BitMatrix {
  return QRCode.create([{ data: Buffer.from(text), mode: "byte" }], { errorCorrectionLevel: "M", maskPattern }).modules;
}

const SCALE = 8; // pixels per module: one byte of a 1-bit row
const MARGIN = 4; // quiet zone in modules, as the QR spec asks

/**
 * The QR code as a 1-bit grayscale PNG data URI. The qrcode package computes the matrix; the PNG
 * is written here because its generic RGBA encoder costs ~10 ms per code, on every create.
 */
export function qrPngDataUri(text: string, maskPattern: QRCode.QRCodeMaskPattern): string {
  const modules = qrModules(text, maskPattern);
  const side = modules.size + 2 * MARGIN; // modules
  const size = side * SCALE; // pixels
  const stride = side + 1; // the row's filter byte, then one byte per module
  // Each module row is written once, unfiltered; the SCALE - 1 pixel rows that repeat it use PNG
  // filter 2 ("up": the difference from the row above), all zeros, which deflate to almost nothing.
  const raw = Buffer.alloc(stride * size); // 0 = dark
  for (let y = 0; y < side; y++) {
    const first = y * SCALE * stride;
    raw.fill(0xff, first + 1, first + stride);
    const my = y - MARGIN;
    if (my >= 0 && my < modules.size) {
      for (let mx = 0; mx < modules.size; mx++) if (modules.get(my, mx)) raw[first + 1 + MARGIN + mx] = 0;
    }
    for (let copy = 1; copy < SCALE; copy++) raw[first + copy * stride] = 2;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, grayscale, deflate, filter method 0 (a type per row), no interlace
  const png = Buffer.concat([
    PNG_SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 1 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString("base64")}`;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  // biome-ignore lint/style/noNonNullAssertion: the index is masked to 0–255 and CRC_TABLE has 256 entries
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
