import { sql } from "drizzle-orm";
import type { Address } from "viem";
import { getConfig } from "../../base/config";
import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { requestDb } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { depositAddressDeriver } from "../../engine/chain/deposit-address-deriver";

export interface DepositAddress {
  index: number;
  address: Address;
}

export interface DepositAddressPoolOptions {
  /** `count` fresh indices, never handed out before by anyone (a sequence). */
  reserve(count: number): Promise<number[]>;
  /** Their addresses, in order; null for an index that has no key. */
  derive(indices: number[]): Promise<(Address | null)[]>;
  /** Indices reserved per refill. */
  batchSize?: number;
  /**
   * A refill starts in the background once this few addresses are left (default ¾ of a batch:
   * deriving a batch takes ~0.5 ms an address, and the pool should not run dry meanwhile).
   */
  lowWater?: number;
}

/**
 * Deposit addresses derived ahead of the requests that need them, so payment/create neither waits
 * for the database's sequence nor derives a key on the request path.
 *
 * Uniqueness rests on the sequence alone: indices are reserved from it in bulk, each one is held by
 * this process only, and `take` hands every address out once. An index that a crash (or a failed
 * create that may have stored it) leaves unused is a gap, never a reuse: a restart skips at most
 * `batchSize + lowWater` indices, all below the sequence's high-water mark, which `admin recover`
 * scans to. An address goes back to the pool only when it provably reached no one and nothing (a
 * refused create, a replay).
 */
export class DepositAddressPool {
  private readonly ready: DepositAddress[] = [];
  private refilling: Promise<number> | null = null;
  private readonly batchSize: number;
  private readonly lowWater: number;

  constructor(private readonly options: DepositAddressPoolOptions) {
    this.batchSize = options.batchSize ?? 128;
    this.lowWater = options.lowWater ?? Math.floor((this.batchSize * 3) / 4);
  }

  /** The next unused address (waits for a refill when none is ready). */
  async take(): Promise<DepositAddress> {
    for (;;) {
      const next = this.ready.shift();
      if (this.ready.length <= this.lowWater) void this.refill().catch(() => {}); // the waiting takers see the error
      if (next) return next;
      if ((await this.refill()) === 0 && this.ready.length === 0)
        throw new Error("no deposit address could be derived for the indices just reserved");
    }
  }

  /** Returns an address that was taken but used for nothing; the next `take` gets it. */
  giveBack(address: DepositAddress): void {
    this.ready.unshift(address);
  }

  /**
   * Runs `work` with the next address. The address goes back to the pool when `work` is refused
   * (an AppError: refusals are decided before anything is written) or when `consumed` says the
   * result did not use it (an idempotent replay); any other failure may have stored it, so it stays
   * a gap. Take the address before opening a transaction: a refill needs a connection of its own.
   */
  async use<T>(work: (address: DepositAddress) => Promise<T>, consumed: (result: T) => boolean = () => true): Promise<T> {
    const address = await this.take();
    let result: T;
    try {
      result = await work(address);
    } catch (error) {
      if (error instanceof AppError) this.giveBack(address);
      throw error;
    }
    if (!consumed(result)) this.giveBack(address);
    return result;
  }

  /** Addresses ready to be taken (for tests and metrics). */
  get size(): number {
    return this.ready.length;
  }

  /** One refill at a time; concurrent callers share it. Resolves to the number of addresses it added. */
  refill(): Promise<number> {
    this.refilling ??= this.load().finally(() => {
      this.refilling = null;
    });
    return this.refilling;
  }

  private async load(): Promise<number> {
    const indices = await this.options.reserve(this.batchSize);
    const addresses = await this.options.derive(indices);
    let added = 0;
    indices.forEach((index, i) => {
      const address = addresses[i];
      if (!address) return;
      this.ready.push({ index, address });
      added++;
    });
    return added;
  }
}

/** `count` values of deposit_index_seq in one round trip. */
export async function reserveDepositIndices(db: Db, count: number): Promise<number[]> {
  const rows = rowsOf<{ index: string | number }>(
    await requestDb(db).execute(sql`select nextval('deposit_index_seq') as index from generate_series(1, ${count}::int)`),
  );
  return rows.map((row) => Number(row.index)).sort((a, b) => a - b);
}

const POOLS_KEY = Symbol.for("bsc-pay.deposit-address-pools");
type Holder = { [POOLS_KEY]?: WeakMap<Db, Map<string, DepositAddressPool>> };

/**
 * The process-wide pool of `db` (the database handle itself, never a transaction: refills outlive
 * the request that triggers them) for the key ring of `mnemonic`.
 */
export function depositAddressPool(db: Db, mnemonic = getConfig().masterMnemonic): DepositAddressPool {
  const holder = globalThis as Holder;
  holder[POOLS_KEY] ??= new WeakMap();
  let byMnemonic = holder[POOLS_KEY].get(db);
  if (!byMnemonic) {
    byMnemonic = new Map();
    holder[POOLS_KEY].set(db, byMnemonic);
  }
  let pool = byMnemonic.get(mnemonic);
  if (!pool) {
    const deriver = depositAddressDeriver(mnemonic);
    pool = new DepositAddressPool({ reserve: (count) => reserveDepositIndices(db, count), derive: (indices) => deriver.derive(indices) });
    byMnemonic.set(mnemonic, pool);
  }
  return pool;
}
