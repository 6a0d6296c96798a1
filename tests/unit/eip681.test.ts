import { randomBytes } from "node:crypto";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import QRCode from "qrcode";
import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { SideThread } from "@/lib/base/side-thread/side-thread";
import { QR_MASK_PATTERN, qrCodeDataUri, qrCodeDataUriOffThread, qrModules, tokenTransferUri } from "@/lib/domain/payments/eip681";
import { NATIVE_TOKEN } from "@/lib/engine/chain/native";

function decode(dataUri: string) {
  const png = PNG.sync.read(Buffer.from(dataUri.replace(/^data:image\/png;base64,/, ""), "base64"));
  return { png, text: jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data };
}

const address = () => getAddress(`0x${randomBytes(20).toString("hex")}`);

describe("qrCodeDataUri (the qrCode of payment/create)", () => {
  const uris = [
    tokenTransferUri({
      tokenContract: "0x55d398326f99059fF775485246999027B3197955",
      chainId: 56,
      depositAddress: address(),
      units: 10_500_000_000_000_000_000n,
    }),
    tokenTransferUri({ tokenContract: address(), chainId: 97, depositAddress: address(), units: 1n }),
    tokenTransferUri({ tokenContract: address(), chainId: 31337, depositAddress: address(), units: 2n ** 256n - 1n }), // version 9
  ];

  it.each(uris)("is a PNG data URI that scans back to %s", (uri) => {
    const dataUri = qrCodeDataUri(uri);
    expect(dataUri).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const { png, text } = decode(dataUri);
    expect(text).toBe(uri);
    const modules = qrModules(uri).size;
    expect(png.width).toBe((modules + 8) * 8); // 8 px per module, 4 modules of quiet zone each side
    expect(png.height).toBe(png.width);
  });

  it("draws exactly the modules of the qrcode package's symbol (level M, byte mode, mask 2)", () => {
    for (const uri of uris) {
      const reference = QRCode.create([{ data: Buffer.from(uri), mode: "byte" }], {
        errorCorrectionLevel: "M",
        maskPattern: QR_MASK_PATTERN,
      });
      const { png } = decode(qrCodeDataUri(uri));
      const size = reference.modules.size;
      for (let row = 0; row < size; row++) {
        for (let col = 0; col < size; col++) {
          const pixel = png.data[(((row + 4) * 8 + 3) * png.width + (col + 4) * 8 + 3) * 4]!; // the module's middle
          expect(pixel === 0 ? 1 : 0, `module ${row},${col}`).toBe(reference.modules.get(row, col));
        }
      }
    }
  });

  it("is the package's default symbol whenever its penalty rules pick mask 2, as they do for most transfer URIs", () => {
    let same = 0;
    for (let i = 0; i < 40; i++) {
      const uri = tokenTransferUri({
        tokenContract: address(),
        chainId: 56,
        depositAddress: address(),
        units: BigInt(`0x${randomBytes(8).toString("hex")}`),
      });
      const preferred = QRCode.create([{ data: Buffer.from(uri), mode: "byte" }], { errorCorrectionLevel: "M" });
      if (preferred.maskPattern !== QR_MASK_PATTERN) continue;
      expect(Buffer.from(qrModules(uri).data)).toEqual(Buffer.from(preferred.modules.data));
      same++;
    }
    expect(same).toBeGreaterThan(20);
  });
});

describe("qrCodeDataUriOffThread", () => {
  it("draws on the side thread exactly the bytes qrCodeDataUri draws", async () => {
    const side = new SideThread();
    for (let i = 0; i < 10; i++) {
      const uri = tokenTransferUri({
        tokenContract: address(),
        chainId: [56, 97, 31337][i % 3]!,
        depositAddress: address(),
        units: BigInt(`0x${randomBytes(1 + i * 3).toString("hex")}`),
      });
      expect(await side.run("qrCode", { text: uri, maskPattern: QR_MASK_PATTERN })).toBe(qrCodeDataUri(uri));
      expect(await qrCodeDataUriOffThread(uri)).toBe(qrCodeDataUri(uri));
    }
    side.retire("test");
  });
});

describe("tokenTransferUri", () => {
  it("a token: the contract's transfer to the deposit address, the amount in base units", () => {
    const depositAddress = address();
    expect(tokenTransferUri({ tokenContract: "0x55d398326f99059fF775485246999027B3197955", chainId: 56, depositAddress, units: 5n })).toBe(
      `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${depositAddress}&uint256=5`,
    );
  });

  it("BNB itself: a plain payment to the deposit address with its value in wei, whatever the sentinel's case", () => {
    const depositAddress = address();
    for (const tokenContract of [NATIVE_TOKEN, NATIVE_TOKEN.toLowerCase()]) {
      expect(tokenTransferUri({ tokenContract, chainId: 56, depositAddress, units: 41_666_666_666_666_667n })).toBe(
        `ethereum:${depositAddress}@56?value=41666666666666667`,
      );
    }
  });
});
