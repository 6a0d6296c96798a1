/** The gas page's loaders (the page and its CSV export): each opens the database itself. */
import { getDb } from "../../../db";
import { gasCsvStream } from "./gas-export";
import { getGasUsage } from "./gas-usage";

/** `/dashboard/gas`: what the gas tank spent for the user, by day and kind. */
export async function loadGasPage(userId: number) {
  return getGasUsage(await getDb(), userId);
}

/** `/dashboard/gas/export`: every transaction the gas tank paid for the merchant, as CSV bytes. */
export async function openGasExport(userId: number): Promise<ReadableStream<Uint8Array>> {
  return gasCsvStream(await getDb(), userId);
}
