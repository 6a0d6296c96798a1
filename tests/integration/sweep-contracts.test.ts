import {
  type Address,
  createWalletClient,
  decodeEventLog,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  type PrivateKeyAccount,
  parseEther,
  parseUnits,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import batchSweeper from "@/lib/engine/chain/contracts/batch-sweeper.json";
import depositDelegate from "@/lib/engine/chain/contracts/deposit-delegate.json";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { chainAt, deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC } from "../helpers/config";
import { payTo, tokenBalance } from "../helpers/engine";
import { deployHostileToken, type HostileToken } from "../helpers/hostile";

/**
 * The EIP-7702 sweep contracts, attacked: DepositDelegate (the code deposit addresses delegate
 * to) and BatchSweeper (the gas tank's batch). Real type-4 transactions on anvil (prague).
 */
const chain = useTestChain({ chainId: 56 });
const keys = keyRingFor(TEST_MNEMONIC);
const tank = keys.signer("gasTank", 0);
const owner = keys.signer("sweeperOwner", 0);
const attacker = privateKeyToAccount(ANVIL_DEFAULT_KEYS[2]!);
const MERCHANT = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const sweeperAbi = batchSweeper.abi;
const delegateAbi = depositDelegate.abi;

let sweeper: Address;
let delegate: Address;
let usd: Address;

const wallet = async (account: PrivateKeyAccount) =>
  createWalletClient({ account, chain: await chainAt(chain().url), transport: http(chain().url) });
const depositKey = (i: number) => keys.signer("deposit", i);
const code = (address: Address) => chain().client.getCode({ address });
const delegatedTo = (target: Address) => `0xef0100${target.slice(2).toLowerCase()}`;

async function deploy(account: PrivateKeyAccount, artifact: { abi: unknown[]; bytecode: string }, args: unknown[]): Promise<Address> {
  const hash = await (await wallet(account)).deployContract({ abi: artifact.abi, bytecode: artifact.bytecode as Hex, args });
  return (await chain().client.waitForTransactionReceipt({ hash })).contractAddress!;
}

/** An authorization by deposit address `i` for `target` (its next nonce and this chain unless told otherwise). */
async function authorize(i: number, target: Address, overrides: { chainId?: number; nonce?: number } = {}) {
  const account = depositKey(i);
  const nonce = overrides.nonce ?? (await chain().client.getTransactionCount({ address: account.address }));
  return account.signAuthorization({ address: target, chainId: overrides.chainId ?? 56, nonce });
}

/** The sender's type-4 transaction: authorizations plus a call. */
async function send(from: PrivateKeyAccount, to: Address, data: Hex, authorizationList: Awaited<ReturnType<typeof authorize>>[] = []) {
  const client = await wallet(from);
  // Without authorizations it must not be type 4 (which needs at least one): leave the list out.
  const hash = await client.sendTransaction(
    authorizationList.length > 0 ? { to, data, authorizationList, gas: 3_000_000n, type: "eip7702" } : { to, data, gas: 3_000_000n },
  );
  return chain().client.waitForTransactionReceipt({ hash });
}

function sweepCall(sweeps: { from: Address; token: Address; to: Address; amount: bigint }[]): Hex {
  return encodeFunctionData({ abi: sweeperAbi, functionName: "sweepBatch", args: [sweeps] });
}

function outcomes(receipt: Awaited<ReturnType<typeof send>>): boolean[] {
  return receipt.logs.flatMap((log) => {
    try {
      const event = decodeEventLog({ abi: sweeperAbi, data: log.data, topics: log.topics });
      return event.eventName === "Swept" ? [(event.args as unknown as { ok: boolean }).ok] : [];
    } catch {
      return [];
    }
  });
}

beforeAll(async () => {
  await chain().client.setBalance({ address: tank.address, value: parseEther("10") });
  await chain().client.setBalance({ address: attacker.address, value: parseEther("10") });
  await chain().client.setBalance({ address: owner.address, value: parseEther("1") });
  sweeper = await deploy(tank, batchSweeper, [owner.address, tank.address, 100_000n]);
  delegate = await deploy(tank, depositDelegate, [sweeper]);
  usd = await deployTestToken(chain().url, { symbol: "BSW" });
});

describe("EIP-7702 batched sweeps: DepositDelegate + BatchSweeper", () => {
  it("sweeps several fresh deposit addresses in one gas-tank transaction; they never need BNB", async () => {
    for (const i of [0, 1, 2])
      await chain().client.waitForTransactionReceipt({
        hash: await payTo(chain().url, usd, depositKey(i).address, parseUnits(`${i + 1}`, 18)),
      });
    const receipt = await send(
      tank,
      sweeper,
      sweepCall([0, 1, 2].map((i) => ({ from: depositKey(i).address, token: usd, to: MERCHANT, amount: parseUnits(`${i + 1}`, 18) }))),
      await Promise.all([0, 1, 2].map((i) => authorize(i, delegate))),
    );
    expect(receipt.status).toBe("success");
    expect(outcomes(receipt)).toEqual([true, true, true]);
    expect(await tokenBalance(chain().url, usd, MERCHANT)).toBe(parseUnits("6", 18));
    for (const i of [0, 1, 2]) {
      expect(await code(depositKey(i).address)).toBe(delegatedTo(delegate));
      expect(await chain().client.getBalance({ address: depositKey(i).address })).toBe(0n);
      expect(await tokenBalance(chain().url, usd, depositKey(i).address)).toBe(0n);
    }
  });

  it("lets nobody but the service's sweeper move funds: not the attacker directly, not through their own sweeper, not through ours", async () => {
    const victim = depositKey(0).address;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, victim, parseUnits("5", 18)) });
    const direct = encodeFunctionData({ abi: delegateAbi, functionName: "sweep", args: [usd, attacker.address, parseUnits("5", 18)] });
    expect((await send(attacker, victim, direct)).status).toBe("reverted"); // NotSweeper
    const theirs = await deploy(attacker, batchSweeper, [attacker.address, attacker.address, 100_000n]);
    const viaTheirs = await send(
      attacker,
      theirs,
      sweepCall([{ from: victim, token: usd, to: attacker.address, amount: parseUnits("5", 18) }]),
    );
    expect(outcomes(viaTheirs)).toEqual([false]);
    expect(
      (await send(attacker, sweeper, sweepCall([{ from: victim, token: usd, to: attacker.address, amount: parseUnits("5", 18) }]))).status,
    ).toBe("reverted"); // NotOperator
    expect(await tokenBalance(chain().url, usd, victim)).toBe(parseUnits("5", 18));
    expect(await tokenBalance(chain().url, usd, attacker.address)).toBe(0n);
  });

  it("binds authorizations to the chain id and the nonce: a replayed or foreign one changes nothing", async () => {
    const fresh = depositKey(7).address;
    // Signed for another chain: not applied here.
    await send(attacker, attacker.address, "0x", [await authorize(7, delegate, { chainId: 1 })]);
    expect(await code(fresh)).toBeUndefined();
    // The service's own authorization, replayed by the attacker in their transaction: it can only
    // install our delegate (the one that obeys our sweeper alone), and only once.
    const ours = await authorize(7, delegate);
    await send(attacker, attacker.address, "0x", [ours]);
    expect(await code(fresh)).toBe(delegatedTo(delegate));
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, fresh, parseUnits("2", 18)) });
    const stolen = encodeFunctionData({ abi: delegateAbi, functionName: "sweep", args: [usd, attacker.address, parseUnits("2", 18)] });
    expect((await send(attacker, fresh, stolen)).status).toBe("reverted");
    // An authorization at a nonce already used (re-delegating the address elsewhere) is ignored.
    const stale = await depositKey(7).signAuthorization({ address: zeroAddress, chainId: 56, nonce: ours.nonce });
    await send(attacker, attacker.address, "0x", [stale]);
    expect(await code(fresh)).toBe(delegatedTo(delegate));
    expect(await tokenBalance(chain().url, usd, fresh)).toBe(parseUnits("2", 18));
  });

  it("keeps no state in the delegate and sweeps tokens that arrive after a sweep in the next batch, without a new authorization", async () => {
    const address = depositKey(1).address;
    for (const slot of [0n, 1n, 2n, 3n])
      expect(await chain().client.getStorageAt({ address, slot: `0x${slot.toString(16)}` })).toMatch(/^0x0*$/);
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, address, parseUnits("4", 18)) });
    const before = await tokenBalance(chain().url, usd, MERCHANT);
    const receipt = await send(tank, sweeper, sweepCall([{ from: address, token: usd, to: MERCHANT, amount: parseUnits("4", 18) }]));
    expect(outcomes(receipt)).toEqual([true]);
    expect(await tokenBalance(chain().url, usd, MERCHANT)).toBe(before + parseUnits("4", 18));
  });

  it("fails only the entry of a reverting or gas-burning token; the rest of the batch goes through", async () => {
    const refusing: HostileToken = await deployHostileToken(chain().url, "RFS");
    const burning: HostileToken = await deployHostileToken(chain().url, "BRN");
    const [a, b, c] = [depositKey(2).address, depositKey(3).address, depositKey(4).address];
    await refusing.call("mint", [a, 10n]);
    await refusing.call("setRevertWhenPaid", [true]);
    await burning.call("mint", [b, 10n]);
    await burning.call("setBurnGas", [true]);
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, c, parseUnits("1", 18)) });
    const before = await tokenBalance(chain().url, usd, MERCHANT);
    const receipt = await send(
      tank,
      sweeper,
      sweepCall([
        { from: a, token: refusing.address, to: MERCHANT, amount: 10n },
        { from: b, token: burning.address, to: MERCHANT, amount: 10n },
        { from: c, token: usd, to: MERCHANT, amount: parseUnits("1", 18) },
      ]),
      [await authorize(3, delegate), await authorize(4, delegate)],
    );
    expect(receipt.status).toBe("success");
    expect(outcomes(receipt)).toEqual([false, false, true]);
    expect(receipt.gasUsed).toBeLessThan(400_000n); // the gas burner got its bounded share only
    expect(await tokenBalance(chain().url, usd, MERCHANT)).toBe(before + parseUnits("1", 18));
    expect(await chain().client.readContract({ address: refusing.address, abi: erc20Abi, functionName: "balanceOf", args: [a] })).toBe(10n);
  });

  it("counts a 'token' with no contract behind it as not swept, accepts plain BNB on a delegated address, and reverts a batch without gas for every entry", async () => {
    const delegated = depositKey(0).address;
    const noCode = "0x000000000000000000000000000000000000dEaD" as Address;
    const receipt = await send(tank, sweeper, sweepCall([{ from: delegated, token: noCode, to: MERCHANT, amount: 1n }]));
    expect(outcomes(receipt)).toEqual([false]);
    // A classic gas top-up of a delegated address must not bounce.
    const topUp = await (await wallet(tank)).sendTransaction({ to: delegated, value: 1000n });
    expect((await chain().client.waitForTransactionReceipt({ hash: topUp })).status).toBe("success");
    expect(await chain().client.getBalance({ address: delegated })).toBe(1000n);
    // Too little gas for the second entry's full allowance: the batch reverts instead of failing it quietly.
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, delegated, parseUnits("1", 18)) });
    const entries = [0, 1].map((i) => ({ from: depositKey(i).address, token: usd, to: MERCHANT, amount: 0n }));
    const client = await wallet(tank);
    const short = await client.sendTransaction({ to: sweeper, data: sweepCall(entries), gas: 140_000n });
    expect((await chain().client.waitForTransactionReceipt({ hash: short })).status).toBe("reverted");
  });

  it("reports an address that never delegated as not swept (its empty answer is not a success)", async () => {
    const undelegated = depositKey(9).address;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, undelegated, parseUnits("1", 18)) });
    const receipt = await send(tank, sweeper, sweepCall([{ from: undelegated, token: usd, to: MERCHANT, amount: parseUnits("1", 18) }]));
    expect(outcomes(receipt)).toEqual([false]);
    expect(await tokenBalance(chain().url, usd, undelegated)).toBe(parseUnits("1", 18));
  });
  it("obeys its owner alone: paused it sweeps nothing, and after the operator role moved a leaked tank key sweeps nothing either", async () => {
    const victim = depositKey(11).address;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, victim, parseUnits("4", 18)) });
    const steal = sweepCall([{ from: victim, token: usd, to: attacker.address, amount: parseUnits("4", 18) }]);
    const setPaused = (paused: boolean) => encodeFunctionData({ abi: sweeperAbi, functionName: "setPaused", args: [paused] });
    const setOperator = (next: Address) => encodeFunctionData({ abi: sweeperAbi, functionName: "setOperator", args: [next] });
    // Neither an outsider nor the operator itself may pause it or move the operator role.
    for (const who of [attacker, tank]) {
      expect((await send(who, sweeper, setPaused(true))).status).toBe("reverted"); // NotOwner
      expect((await send(who, sweeper, setOperator(who.address))).status).toBe("reverted");
    }
    expect((await send(owner, sweeper, setOperator(zeroAddress))).status).toBe("reverted"); // ZeroOperator

    // Paused: even the operator's batch reverts (the leaked tank key is stopped by one transaction).
    expect((await send(owner, sweeper, setPaused(true))).status).toBe("success");
    expect(await chain().client.readContract({ address: sweeper, abi: sweeperAbi, functionName: "paused" })).toBe(true);
    expect((await send(tank, sweeper, steal, [await authorize(11, delegate)])).status).toBe("reverted"); // IsPaused
    expect(await tokenBalance(chain().url, usd, victim)).toBe(parseUnits("4", 18));

    // The operator role moves to the next gas tank; the old key can do nothing any more, the new one sweeps.
    const nextTank = keys.signer("gasTank", 1);
    await chain().client.setBalance({ address: nextTank.address, value: parseEther("1") });
    expect((await send(owner, sweeper, setOperator(nextTank.address))).status).toBe("success");
    expect((await send(owner, sweeper, setPaused(false))).status).toBe("success");
    expect((await send(tank, sweeper, steal)).status).toBe("reverted"); // NotOperator
    expect(await tokenBalance(chain().url, usd, victim)).toBe(parseUnits("4", 18));
    const swept = await send(nextTank, sweeper, sweepCall([{ from: victim, token: usd, to: MERCHANT, amount: parseUnits("4", 18) }]));
    expect(outcomes(swept)).toEqual([true]);
    expect(await tokenBalance(chain().url, usd, victim)).toBe(0n);
    expect((await send(owner, sweeper, setOperator(tank.address))).status).toBe("success");
  });
});
