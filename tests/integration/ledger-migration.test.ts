import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Address, getAddress, type Hex, keccak256, parseGwei } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/lib/db/client";
import { migrate, readMigrations } from "@/lib/db/migrate";
import { rowsOf } from "@/lib/db/rows";
import { chainTransactions, forwards, sweepBatches, withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { TEST_MNEMONIC } from "../helpers/config";
import { createTestDatabase } from "../helpers/database";

/**
 * Migrations 0012–0014 move every signed transaction of the old trackers (gas_top_ups,
 * sweep_batches, the raw columns of forwards and withdrawals) into the ledger: played on a database as release 0011 left
 * it, holding every in-flight state. Nothing may be lost, re-signed or duplicated.
 */
const keys = keyRingFor(TEST_MNEMONIC);
const TOKEN = "0x55d398326f99059fF775485246999027B3197955" as Address;
const TARGET = getAddress("0x00000000000000000000000000000000000beef1");
const GWEI = parseGwei("1");
const BEFORE_LEDGER = readMigrations().filter((m) => m.tag < "0012");

let handle: DatabaseHandle;
const raw: Record<string, Hex> = {};
const q = (query: ReturnType<typeof sql>) => handle.db.execute(query);

async function sign(
  purpose: "gasTank" | "deposit" | "withdrawal",
  index: number,
  tx: { to: Address; nonce: number; value?: bigint; gas?: bigint; data?: Hex },
): Promise<Hex> {
  return keys.signer(purpose, index).signTransaction({ chainId: 56, type: "legacy", gas: 60_000n, gasPrice: GWEI, value: 0n, ...tx });
}

beforeAll(async () => {
  handle = await createTestDatabase(BEFORE_LEDGER);
  await q(sql`insert into users (id, email, password_hash) overriding system value values (1, 'old@example.com', 'x')`);
  await q(sql`insert into api_keys (id, user_id, name, prefix, key_hash) overriding system value values (1, 1, 'k', 'p', 'h')`);
  await q(sql`insert into domains (id, user_id, origin) overriding system value values (1, 1, 'https://shop.example')`);
  await q(
    sql`insert into tokens (id, user_id, network, contract_address, symbol, name, decimals) overriding system value values (1, 1, 'bsc', ${TOKEN}, 'USDT', 'Tether', 18)`,
  );
  for (const index of [5, 6, 7]) {
    await q(sql`insert into payment_sessions (id, user_id, api_key_id, token_id, network, chain_id, deposit_index, deposit_address, deposit_topic, amount, forward_to, expires_at)
      values (${randomUUID()}, 1, 1, 1, 'bsc', 56, ${index}, ${keys.depositAddress(index)}, ${`0x${index}`}, 10, ${TARGET}, now())`);
  }
  const tank = (name: string, nonce: number, to: Address) =>
    sign("gasTank", 0, { to, nonce, value: 1000n, gas: 21_000n }).then((r) => (raw[name] = r));
  const sweep = (name: string, index: number) =>
    sign("deposit", index, { to: TOKEN, nonce: 0, data: "0xa9059cbb" }).then((r) => (raw[name] = r));
  const withdrawal = (name: string, nonce: number) =>
    sign("withdrawal", 1, { to: TOKEN, nonce, data: "0xa9059cbb" }).then((r) => (raw[name] = r));
  const filler = (name: string, nonce: number) =>
    sign("withdrawal", 1, { to: keys.withdrawalAddress(1), nonce, gas: 21_000n }).then((r) => (raw[name] = r));
  await Promise.all([
    tank("g-mined", 0, keys.withdrawalAddress(1)),
    tank("f3-gas", 1, keys.depositAddress(7)),
    tank("f2-gas", 2, keys.depositAddress(6)),
    tank("f1-gas", 3, keys.depositAddress(5)),
    tank("g-open", 4, keys.withdrawalAddress(1)),
    sweep("f2-sweep", 6),
    sweep("f3-sweep", 7),
    ...[0, 1, 2, 3, 4].map((n) => withdrawal(`w${n}`, n)),
    filler("w1-filler", 1),
    filler("w3-filler", 3),
    sign("gasTank", 0, { to: TARGET, nonce: 5, data: "0x01" }).then((r) => (raw["deploy-mined"] = r)),
    sign("gasTank", 0, { to: TARGET, nonce: 6, data: "0x02" }).then((r) => (raw["batch-open"] = r)),
    sign("gasTank", 0, { to: TARGET, nonce: 7, data: "0x03" }).then((r) => (raw["batch-refused"] = r)),
    sign("gasTank", 0, { to: keys.gasTankAddress(), nonce: 7, gas: 21_000n }).then((r) => (raw["batch-cancel"] = r)),
  ]);
  const h = (name: string) => keccak256(raw[name]!);
  await q(sql`insert into gas_top_ups (network, to_address, value, nonce, tx_hash, raw_tx, mined_at) values
    ('bsc', ${keys.withdrawalAddress(1)}, 1000, 0, ${h("g-mined")}, ${raw["g-mined"]}, now()),
    ('bsc', ${keys.withdrawalAddress(1)}, 1000, 4, ${h("g-open")}, ${raw["g-open"]}, null)`);
  const forward = (status: string, index: number, gas: string | null, sweepTx: string | null) =>
    q(sql`insert into forwards (network, from_address, to_address, token_contract, amount, status, gas_price, sweep_gas_limit, gas_amount, gas_nonce, gas_tx_hash, gas_raw_tx, sweep_nonce, sweep_tx_hash, sweep_raw_tx, gas_used, completed_at)
      values ('bsc', ${keys.depositAddress(index)}, ${TARGET}, ${TOKEN}, 10, ${status}, ${GWEI.toString()}, 60000, 1000,
        ${gas ? Number(gas.split(":")[1]) : null}, ${gas ? h(gas.split(":")[0]!) : null}, ${gas ? raw[gas.split(":")[0]!]! : null},
        ${sweepTx ? 0 : null}, ${sweepTx ? h(sweepTx) : null}, ${sweepTx ? raw[sweepTx]! : null},
        ${status === "completed" ? 30000 : null}, ${status === "completed" ? new Date().toISOString() : null})`);
  await forward("gas_sent", 5, "f1-gas:3", null);
  await forward("sweep_sent", 6, "f2-gas:2", "f2-sweep");
  await forward("completed", 7, "f3-gas:1", "f3-sweep");
  await forward("pending", 5, null, null);
  const wd = (nonce: number, status: string, extra: { filler?: string; fillerRaw?: boolean; reason?: string } = {}) =>
    q(sql`insert into withdrawals (id, user_id, domain_id, token_id, network, from_address, to_address, amount, nonce, tx_hash, raw_tx, gas_limit, gas_price, status, filler_tx_hash, filler_raw_tx, failure_reason, broadcast_at)
      values (${randomUUID()}, 1, 1, 1, 'bsc', ${keys.withdrawalAddress(1)}, ${TARGET}, 5, ${nonce}, ${h(`w${nonce}`)}, ${raw[`w${nonce}`]!}, 60000, ${GWEI.toString()}, ${status},
        ${extra.filler ? h(extra.filler) : null}, ${extra.filler && extra.fillerRaw ? raw[extra.filler]! : null}, ${extra.reason ?? null}, now())`);
  await wd(0, "submitted");
  await wd(1, "submitted", { filler: "w1-filler", fillerRaw: true });
  await wd(2, "completed");
  await wd(3, "failed", {
    filler: "w3-filler",
    reason: "the network refused the transaction; its nonce was filled by a 0-value transfer, nothing was sent",
  });
  await wd(4, "failed", { reason: "the transfer reverted on chain; the tokens were not sent" });
  const batch = (name: string, kind: string, status: string, nonce: number) =>
    q(sql`insert into sweep_batches (network, kind, token_contract, size, from_address, nonce, gas_limit, gas_price, tx_hash, raw_tx, status)
      values ('bsc', ${kind}, ${kind === "sweep" ? TOKEN : null}, ${kind === "sweep" ? 2 : 0}, ${keys.gasTankAddress()}, ${nonce}, 60000, ${GWEI.toString()}, ${h(name)}, ${raw[name]!}, ${status})`);
  await batch("deploy-mined", "deploy_sweeper", "mined", 5);
  await batch("batch-open", "sweep", "sent", 6);
  await batch("batch-refused", "sweep", "replaced", 7);
  await batch("batch-cancel", "cancel", "mined", 7);
  await migrate(handle.db);
});

afterAll(async () => {
  await handle?.close();
});

describe("migrating the old transaction trackers into the ledger", () => {
  it("moves every signed transaction once, with its very bytes, wallet, nonce and state", async () => {
    const ledger = await handle.db.select().from(chainTransactions);
    expect(ledger).toHaveLength(Object.keys(raw).length);
    const byHash = new Map(ledger.map((r) => [r.txHash, r]));
    const row = (name: string) => byHash.get(keccak256(raw[name]!))!;
    for (const name of Object.keys(raw)) {
      const moved = row(name);
      if (name === "w3-filler")
        expect(moved.rawTx).toBeNull(); // the old record had already dropped the mined filler's bytes
      else expect(moved.rawTx).toBe(raw[name]);
    }
    const tank = keys.gasTankAddress();
    expect(
      ["g-mined", "g-open", "f1-gas", "f2-gas", "f3-gas"].map((n) => [row(n).walletRole, row(n).wallet, row(n).gasLimit, row(n).gasPrice]),
    ).toEqual(Array(5).fill(["gas_tank", tank, 21_000n, GWEI]));
    expect([row("g-mined").nonce, row("g-open").nonce, row("f1-gas").nonce]).toEqual([0, 4, 3]);
    expect([row("f2-sweep").walletRole, row("f2-sweep").walletIndex, row("f2-sweep").wallet, row("f2-sweep").kind]).toEqual([
      "deposit",
      6,
      keys.depositAddress(6),
      "sweep",
    ]);
    expect([row("w0").walletRole, row("w0").walletIndex, row("w0").kind, row("w0").toAddress]).toEqual([
      "withdrawal",
      1,
      "withdrawal",
      TOKEN,
    ]);

    const states = Object.fromEntries(Object.keys(raw).map((n) => [n, row(n).status]));
    expect(states).toEqual({
      "g-mined": "mined",
      "g-open": "pending",
      "f1-gas": "pending",
      "f2-gas": "pending", // the ledger settles it from its receipt
      "f3-gas": "mined",
      "f2-sweep": "pending",
      "f3-sweep": "mined",
      w0: "pending",
      w1: "pending",
      "w1-filler": "pending",
      w2: "mined",
      w3: "replaced",
      "w3-filler": "mined",
      w4: "reverted",
      "deploy-mined": "mined",
      "batch-open": "pending",
      "batch-refused": "replaced",
      "batch-cancel": "mined",
    });
    expect([row("deploy-mined").kind, row("batch-open").kind, row("batch-open").toAddress, row("batch-open").wallet]).toEqual([
      "deploy",
      "batch",
      TARGET,
      tank,
    ]);
    expect(row("batch-cancel")).toMatchObject({ kind: "cancel", replacesId: row("batch-refused").id });
    expect(row("batch-refused")).toMatchObject({ replacedById: row("batch-cancel").id });
    expect(row("w1-filler")).toMatchObject({ kind: "cancel", replacesId: row("w1").id });
    expect(row("w3")).toMatchObject({ replacedById: row("w3-filler").id });
  });

  it("points every forward and withdrawal at its ledger rows", async () => {
    const moved = await handle.db.select().from(forwards).orderBy(forwards.id);
    const hashOf = async (id: number | null) =>
      id === null ? null : rowsOf<{ tx_hash: string }>(await q(sql`select tx_hash from chain_transactions where id = ${id}`))[0]!.tx_hash;
    for (const f of moved) {
      expect(await hashOf(f.gasTxId)).toBe(f.gasTxHash);
      expect(await hashOf(f.sweepTxId)).toBe(f.sweepTxHash);
    }
    expect(moved.map((f) => [f.status, f.gasTxId !== null, f.sweepTxId !== null])).toEqual([
      ["gas_sent", true, false],
      ["sweep_sent", true, true],
      ["completed", true, true],
      ["pending", false, false],
    ]);
    for (const w of await handle.db.select().from(withdrawals)) expect(await hashOf(w.chainTxId)).toBe(w.txHash);
    for (const b of await handle.db.select().from(sweepBatches)) expect(await hashOf(b.chainTxId)).toBe(b.txHash);
  });
});
