import QRCode from "qrcode";

/**
 * EIP-681 token-transfer URI: wallets that scan it prefill the token, the chain, the recipient
 * and the amount in base units.
 */
export function tokenTransferUri(input: { tokenContract: string; chainId: number; depositAddress: string; units: bigint }): string {
  return `ethereum:${input.tokenContract}@${input.chainId}/transfer?address=${input.depositAddress}&uint256=${input.units}`;
}

export async function qrCodeDataUri(text: string): Promise<string> {
  return QRCode.toDataURL(text, { errorCorrectionLevel: "M", margin: 2, width: 320 });
}
