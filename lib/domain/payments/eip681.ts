import type QRCode from "qrcode";
import { sideThread } from "../../base/side-thread/side-thread";
import { qrPngDataUri, qrModules as qrSymbol } from "../../base/side-thread/worker/qr-png.ts";
import { isNativeToken } from "../../engine/chain/native";

/**
 * EIP-681 token-transfer URI: wallets that scan it prefill the token, the chain, the recipient
 * and the amount in base units. BNB itself is a plain payment to the address with a `value` in wei.
 */
export function tokenTransferUri(input: { tokenContract: string; chainId: number; depositAddress: string; units: bigint }): string {
  if (isNativeToken(input.tokenContract)) return `ethereum:${input.depositAddress}@${input.chainId}?value=${input.units}`;
  return `ethereum:${input.tokenContract}@${input.chainId}/transfer?address=${input.depositAddress}&uint256=${input.units}`;
}

/**
 * The QR symbol of `text`: one byte-mode segment (the URI is short, and the package's optimal
 * segmentation costs more than it saves), level M, mask pattern 2. Any mask decodes the same (the
 * symbol names its mask); the package's default scores all eight by the ISO 18004 penalty rules,
 * which costs ~0.6 ms, three quarters of a create's QR work. For EIP-681 transfer URIs (versions 8–9)
 * those rules pick mask 2 for the large majority of codes, so fixing it changes almost none.
 */
export const QR_MASK_PATTERN = 2;

export function qrModules(text: string): QRCode.BitMatrix {
  return qrSymbol(text, QR_MASK_PATTERN);
}

/** The QR code of `text` as a 1-bit grayscale PNG data URI (lib/base/side-thread/worker/qr-png.ts draws it). */
export function qrCodeDataUri(text: string): string {
  return qrPngDataUri(text, QR_MASK_PATTERN);
}

/** `qrCodeDataUri` drawn on the side thread (the same bytes), or here when there is none. */
export async function qrCodeDataUriOffThread(text: string): Promise<string> {
  const side = sideThread();
  if (side.available) {
    try {
      return await side.run("qrCode", { text, maskPattern: QR_MASK_PATTERN });
    } catch {
      // the side thread failed meanwhile: draw it here
    }
  }
  return qrCodeDataUri(text);
}
