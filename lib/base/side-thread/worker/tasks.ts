import type QRCode from "qrcode";
import { depositAddresses } from "./deposit-addresses.ts";
import { qrPngDataUri } from "./qr-png.ts";

/**
 * What the side thread does (entry.ts runs these; side-thread.ts types its requests by them):
 * - `depositAddresses`: the EIP-55 addresses of public BIP-32 children (deposit-addresses.ts).
 * - `qrCode`: the PNG data URI of lib/domain/payments/eip681.ts `qrCodeDataUri` (qr-png.ts draws both).
 */
export const TASKS = {
  depositAddresses,
  qrCode: ({ text, maskPattern }: { text: string; maskPattern: QRCode.QRCodeMaskPattern }) => qrPngDataUri(text, maskPattern),
};

export type SideThreadTasks = {
  [K in keyof typeof TASKS]: { payload: Parameters<(typeof TASKS)[K]>[0]; result: Awaited<ReturnType<(typeof TASKS)[K]>> };
};
