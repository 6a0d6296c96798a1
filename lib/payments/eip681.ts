import { deflateSync } from "node:zlib";
import QRCode from "qrcode";

/**
 * EIP-681 token-transfer URI: wallets that scan it prefill the token, the chain, the recipient
 * and the amount in base units.
 */
export function tokenTransferUri(input: { tokenContract: string; chainId: number; depositAddress: string; units: bigint }): string {
  return `ethereum:${input.tokenContract}@${input.chainId}/transfer?address=${input.depositAddress}&uint256=${input.units}`;
}

const SCALE = 8; // pixels per module
const MARGIN = 4; // quiet zone in modules, as the QR spec asks

/**
 * The QR code as a 1-bit grayscale PNG data URI. The qrcode package computes the matrix; the PNG
 * is written here because its generic RGBA encoder costs ~10 ms per code, on every create.
 */
export function qrCodeDataUri(text: string): string {
  // One byte-mode segment: the URI is short, and the package's optimal segmentation costs more than it saves.
  const { modules } = QRCode.create([{ data: Buffer.from(text), mode: "byte" }], { errorCorrectionLevel: "M" });
  const size = (modules.size + 2 * MARGIN) * SCALE;
  const rowBytes = Math.ceil(size / 8);
  const stride = rowBytes + 1; // leading filter byte (0 = none) per row
  const raw = Buffer.alloc(stride * size, 0xff);
  for (let y = 0; y < size; y++) raw[y * stride] = 0;
  for (let my = 0; my < modules.size; my++) {
    const first = (my + MARGIN) * SCALE * stride;
    for (let mx = 0; mx < modules.size; mx++) {
      if (!modules.get(my, mx)) continue;
      for (let x = (mx + MARGIN) * SCALE, end = x + SCALE; x < end; x++) {
        raw[first + 1 + (x >> 3)]! &= ~(0x80 >> (x & 7)); // dark = 0 in 1-bit grayscale
      }
    }
    for (let copy = 1; copy < SCALE; copy++) raw.copy(raw, first + copy * stride, first, first + stride);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, grayscale, deflate, no filter, no interlace
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
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
