import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, http, parseEther, parseUnits, type Address, type Hex, type PrivateKeyAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startAnvil } from "@/lib/chain/anvil";
import batchSweeper from "@/lib/chain/contracts/batch-sweeper.json";
import depositDelegate from "@/lib/chain/contracts/deposit-delegate.json";
import { ANVIL_DEFAULT_KEYS } from "@/lib/chain/demo-token";
import { keyRingFor } from "@/lib/chain/keys";
import { BENCH_MNEMONIC } from "./server";
import { deployBenchToken } from "./token";

/**
 * `npm run bench:sweeps` (anvil, prague, chain 56): gas per forwarded deposit and transactions per
 * deposit, classic (gas top-up + token transfer per deposit) against EIP-7702 batches of 1, 10, 50
 * and 100 deposit addresses — for fresh addresses (each carries its authorization) and for
 * addresses already delegated (tokens sent again after a sweep). Merchant wallets already hold
 * the token, as a live shop's do.
 */
const SIZES = (process.env.BENCH_BATCH_SIZES ?? "1,10,50,100").split(",").map(Number);

async function main() {
  const anvil = await startAnvil({ chainId: 56 });
  try {
    const client = createPublicClient({ transport: http(anvil.url) });
    const chain = { id: 56, name: "bench", nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 }, rpcUrls: { default: { http: [anvil.url] } } };
    const walletOf = (account: PrivateKeyAccount) => createWalletClient({ account, chain, transport: http(anvil.url) });
    const keys = keyRingFor(BENCH_MNEMONIC);
    const tank = keys.signer("gasTank", 0);
    const payer = walletOf(privateKeyToAccount(ANVIL_DEFAULT_KEYS[1]!));
    const merchant = privateKeyToAccount(ANVIL_DEFAULT_KEYS[2]!).address; // holds the token already
    await createTestClientBalance(anvil.url, tank.address);
    const token = await deployBenchToken(anvil.url);
    const deploy = async (artifact: { abi: unknown[]; bytecode: string }, args: unknown[]) =>
      (await client.waitForTransactionReceipt({ hash: await walletOf(tank).deployContract({ abi: artifact.abi, bytecode: artifact.bytecode as Hex, args }) })).contractAddress!;
    const sweeper = await deploy(batchSweeper, [tank.address, 100_000n]);
    const delegate = await deploy(depositDelegate, [sweeper]);
    const pay = async (to: Address) => client.waitForTransactionReceipt({ hash: await payer.writeContract({ address: token, abi: erc20Abi, functionName: "transfer", args: [to, parseUnits("1", 18)] }) });

    // Classic: the tank sends the gas, the deposit address sends the tokens.
    const classic = keys.signer("deposit", 100_000);
    await pay(classic.address);
    const transferData = encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [merchant, parseUnits("1", 18)] });
    const estimate = await client.estimateGas({ account: classic.address, to: token, data: transferData });
    const gasPrice = await client.getGasPrice();
    const topUp = await client.waitForTransactionReceipt({ hash: await walletOf(tank).sendTransaction({ to: classic.address, value: ((estimate * 13n) / 10n) * gasPrice, gasPrice }) });
    const sweep = await client.waitForTransactionReceipt({ hash: await walletOf(classic).sendTransaction({ to: token, data: transferData, gas: (estimate * 13n) / 10n, gasPrice }) });
    console.log("\nmode      | batch | addresses          | gas per deposit | transactions per deposit | BNB left on a deposit address");
    console.log(`classic   |     1 | fresh              | ${String(topUp.gasUsed + sweep.gasUsed).padStart(15)} | ${"2".padStart(24)} | ${(await client.getBalance({ address: classic.address })) > 0n ? "yes (dust)" : "no"}`);

    let next = 0;
    for (const size of SIZES) {
      const accounts = Array.from({ length: size }, () => keys.signer("deposit", next++));
      for (const kind of ["fresh", "delegated"] as const) {
        for (const a of accounts) await pay(a.address);
        const authorizationList = kind === "fresh" ? await Promise.all(accounts.map((a) => a.signAuthorization({ address: delegate, chainId: 56, nonce: 0 }))) : [];
        const data = encodeFunctionData({
          abi: batchSweeper.abi,
          functionName: "sweepBatch",
          args: [accounts.map((a) => ({ from: a.address, token, to: merchant, amount: parseUnits("1", 18) }))],
        });
        // An empty authorization list would make a type-4 transaction, which must carry at least one.
        const gas = 200_000n + BigInt(size) * 120_000n;
        const hash = await walletOf(tank).sendTransaction(authorizationList.length > 0 ? { to: sweeper, data, gas, authorizationList, type: "eip7702" } : { to: sweeper, data, gas });
        const receipt = await client.waitForTransactionReceipt({ hash });
        if (receipt.status !== "success") throw new Error(`batch of ${size} reverted`);
        const left = await Promise.all(accounts.map((a) => client.getBalance({ address: a.address })));
        console.log(
          `7702      | ${String(size).padStart(5)} | ${kind.padEnd(18)} | ${String(receipt.gasUsed / BigInt(size)).padStart(15)} | ${(1 / size).toFixed(3).padStart(24)} | ${left.some((b) => b > 0n) ? "yes" : "no"}`,
        );
      }
    }
  } finally {
    await anvil.stop();
  }
}

async function createTestClientBalance(url: string, address: Address) {
  await createPublicClient({ transport: http(url) }).request({ method: "anvil_setBalance" as never, params: [address, `0x${parseEther("1000").toString(16)}`] as never });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
