import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SideThread, WORKER_ENTRY } from "@/lib/base/side-thread/side-thread";
import { qrPngDataUri } from "@/lib/base/side-thread/worker/qr-png.ts";
import { QR_MASK_PATTERN, qrCodeDataUri } from "@/lib/domain/payments/eip681";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The PNGs the side thread drew when its code was a string of JavaScript (the commit that made it
 * lib/base/side-thread/worker/): the same bytes, on either thread.
 */
const DRAWN_BEFORE: [text: string, sha256: string][] = [
  [
    "ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266&uint256=10500000000000000000",
    "ad40d819d1cce79802444ecf82ee3b81614a73e6a92491aa681a36e18b2a0d0d",
  ],
  [
    "ethereum:0x70997970C51812dc3A010C7d01b50e0d17dc79C8@97/transfer?address=0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC&uint256=1",
    "bab27999134b5192a3ff6a8da794f0550590353ae651e81e95e210085f73b597",
  ],
  [
    "ethereum:0x90F79bf6EB2c4f870365E785982E1f101E93b906@31337/transfer?address=0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65&uint256=115792089237316195423570985008687907853269984665640564039457584007913129639935",
    "fca21d4e9f9f543258e04d4f3c1060e3bb7b2df945d9985b960fad78e483e11c",
  ],
  ["hello", "845a9e2c0dfdedf59f8c57abd8aae424d93b20440f0508bcbc753063ad4cfab4"],
  ["", "44dae09ef19f628ffef460f442d0d97cd29b3ef4f0b7a1f3cf243d38e1d708a0"],
];

describe("the side thread's QR code", () => {
  it("is the same PNG as before, on either thread", async () => {
    const side = new SideThread();
    for (const [text, drawn] of DRAWN_BEFORE) {
      expect(sha256(qrCodeDataUri(text)), text).toBe(drawn);
      expect(sha256(qrPngDataUri(text, QR_MASK_PATTERN)), text).toBe(drawn);
      expect(sha256(await side.run("qrCode", { text, maskPattern: QR_MASK_PATTERN })), text).toBe(drawn);
    }
    side.retire("test");
  });
});

describe("lib/base/side-thread/worker (loaded by Node from the sources)", () => {
  const folder = "lib/base/side-thread/worker";
  const files = readdirSync(folder).filter((name) => name.endsWith(".ts"));

  it("runs on this Node (package.json engines: 22.18 or later strips types)", () => {
    expect(process.features.typescript, `Node ${process.version} cannot load the side thread's sources`).toBeTruthy();
  });

  it("is where the side thread starts", () => {
    expect(existsSync(WORKER_ENTRY)).toBe(true);
    expect(WORKER_ENTRY.startsWith(`${folder}/`)).toBe(true);
  });

  it.each(files)("%s imports packages and its own folder's .ts files only, in syntax type stripping erases", (name) => {
    const source = readFileSync(join(folder, name), "utf8");
    for (const [, spec] of source.matchAll(/(?:from|import\()\s*["']([^"']+)["']/g)) {
      if (spec?.startsWith(".")) expect(spec, `${name} imports ${spec}`).toMatch(/^\.\/[\w-]+\.ts$/);
      else expect(spec, `${name} imports ${spec}`).not.toMatch(/^@\//);
    }
    expect(() => stripTypeScriptTypes(source)).not.toThrow(); // no enum, namespace or parameter property
  });
});
