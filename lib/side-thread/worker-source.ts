/**
 * The side thread's code, run by `new Worker(source, { eval: true })`: plain CommonJS, because the
 * bundle's own modules cannot be loaded in a worker. It `require`s the same npm packages the app
 * uses (resolved from the working directory, i.e. the app's node_modules); if one is missing it
 * says so and stops, and the app does the work on its main thread instead.
 *
 * Tasks:
 * - `depositAddresses`: BIP-32 public derivation of children of a parent public key (child = parent
 *   + IL·G, IL = HMAC-SHA512(chainCode, parentKey ‖ index)[0..32]) and their EIP-55 addresses; null
 *   for an index BIP-32 has no key for. Yields between slices, so a QR request never waits long.
 *   The curve arithmetic is libsecp256k1's (tiny-secp256k1, WebAssembly), the hash @noble/hashes'.
 * - `qrCode`: the PNG data URI of lib/checkout/eip681.ts `qrCodeDataUri` (same symbol, same bytes:
 *   tests/unit/eip681.test.ts compares them).
 */
export const WORKER_SOURCE = String.raw`
"use strict";
const { parentPort } = require("node:worker_threads");
const { createHmac, ECDH } = require("node:crypto");
const { dirname } = require("node:path");
const { deflateSync } = require("node:zlib");

let secp256k1, keccak_256, QRCode;
try {
  secp256k1 = require("tiny-secp256k1"); // libsecp256k1 as WebAssembly: 3x faster than OpenSSL's generic curve code here
  const curves = dirname(require.resolve("@noble/curves/secp256k1")); // @noble/hashes is its dependency
  ({ keccak_256 } = require(require.resolve("@noble/hashes/sha3", { paths: [curves] })));
  QRCode = require("qrcode");
} catch (error) {
  parentPort.postMessage({ ready: false, error: String(error && error.message || error).split("\n")[0] });
  process.exit(1);
}
parentPort.postMessage({ ready: true });

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n; // the order of secp256k1
const parents = new Map();

function parentOf(publicKey) {
  const key = Buffer.from(publicKey);
  let parent = parents.get(key.toString("hex"));
  if (!parent) {
    // Uncompressed once, so each child's addition need not decompress it again.
    parent = { key, point: ECDH.convertKey(key, "secp256k1", undefined, undefined, "uncompressed") };
    parents.set(key.toString("hex"), parent);
  }
  return parent;
}

function checksummed(lowerHex) {
  const hash = keccak_256(Buffer.from(lowerHex, "ascii"));
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 15;
    out += nibble >= 8 ? lowerHex[i].toUpperCase() : lowerHex[i];
  }
  return out;
}

function childAddress(parent, chainCode, index) {
  const data = Buffer.alloc(37);
  parent.key.copy(data, 0);
  data.writeUInt32BE(index, 33);
  const il = createHmac("sha512", chainCode).update(data).digest().subarray(0, 32);
  const tweak = BigInt("0x" + il.toString("hex"));
  if (tweak === 0n || tweak >= N) return null;
  // IL·G on the generator's tables, then one addition: about a quarter cheaper than pointAddScalar (tweak-add).
  const child = secp256k1.pointAdd(parent.point, secp256k1.pointFromScalar(il, false), false); // null at infinity
  if (!child) return null;
  return checksummed(Buffer.from(keccak_256(child.subarray(1))).subarray(12).toString("hex"));
}

function depositAddresses({ publicKey, chainCode, indices }, reply) {
  const parent = parentOf(publicKey);
  const code = Buffer.from(chainCode);
  const out = [];
  const slice = () => {
    try {
      for (let end = Math.min(indices.length, out.length + 4); out.length < end; ) out.push(childAddress(parent, code, indices[out.length]));
    } catch (error) {
      return reply(undefined, error);
    }
    if (out.length < indices.length) setImmediate(slice);
    else reply(out);
  };
  slice();
}

const SCALE = 8;
const MARGIN = 4;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
function qrCode({ text, maskPattern }, reply) {
  const modules = QRCode.create([{ data: Buffer.from(text), mode: "byte" }], { errorCorrectionLevel: "M", maskPattern }).modules;
  const side = modules.size + 2 * MARGIN;
  const size = side * SCALE;
  const stride = side + 1;
  const raw = Buffer.alloc(stride * size);
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
  header.set([1, 0, 0, 0, 0], 8);
  const png = Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", deflateSync(raw, { level: 1 })), chunk("IEND", Buffer.alloc(0))]);
  reply("data:image/png;base64," + png.toString("base64"));
}

const tasks = { depositAddresses, qrCode };
parentPort.on("message", ({ id, task, payload }) => {
  const reply = (result, error) => parentPort.postMessage(error === undefined ? { id, result } : { id, error: String(error && error.message || error) });
  try {
    tasks[task](payload, reply);
  } catch (error) {
    reply(undefined, error);
  }
});
`;
