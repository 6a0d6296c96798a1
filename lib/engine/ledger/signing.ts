/**
 * The one door for signing. Only this file takes a key of the service to sign (chain/keys.ts), and
 * only through it is a wallet's nonce taken (nonces.ts) or a signed transaction recorded (record.ts):
 *
 *   signAndRecord     the wallet's next nonce (under its row lock), the bytes signed, the ledger row
 *                     written — all in the caller's database transaction, before anything is
 *                     broadcast (docs/design.md §17); call it once per transaction, in nonce order
 *   signReplacement   the same nonce as the row it replaces (a re-price or a cancel), recorded as
 *                     replacing it; no nonce is taken
 *
 * A wallet is named as chain/wallet-addresses.ts names it: its key's role and index, and its
 * address. A key that does not derive that address signs nothing, so a nonce of one wallet is never
 * spent by another's key. Beside them: a deposit key's EIP-7702 authorization of the delegate (at
 * the address's own chain nonce, outside every ledger stream: it rides in a gas-tank batch), the
 * lock on a wallet's nonce row that money out takes before reading balances, and a throwaway key's
 * authorization for a capability probe.
 */
import type { Address, AuthorizationRequest, Hex, PrivateKeyAccount, SignedAuthorization, SignedAuthorizationList } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import type { ChainTransaction, ChainTransactionKind } from "../../db/schema/engine";
import { keyRingFor, PURPOSE_OF_ROLE } from "../chain/keys";
import { chainOf, requireNetworkConfig } from "../chain/networks";
import type { ServiceWallet } from "../chain/wallet-addresses";
import type { GasChargeShare } from "./charges";
import { allocateNonce, lockNonceRow } from "./nonces";
import { recordTransaction } from "./record";

interface Payload {
  to: Address;
  value?: bigint;
  data?: Hex;
  gas: bigint;
}

/** What to sign, without the nonce and the chain (the door adds both). */
export type UnsignedTransaction =
  | (Payload & { type: "legacy"; gasPrice: bigint })
  | (Payload & {
      type: "eip7702";
      maxFeePerGas: bigint;
      maxPriorityFeePerGas: bigint;
      /** Signed by the deposit keys (signDelegation), or carried over from the row a replacement replaces. */
      authorizationList: SignedAuthorizationList;
    });

export interface SignRequest {
  network: string;
  /** Who signs and sends: the nonce is taken from this wallet's stream, on this address. */
  wallet: ServiceWallet;
  kind: ChainTransactionKind;
  /**
   * The wallet's transaction count as the chain reported it: the stream jumps ahead to it when the
   * key was used outside the service, so a spent nonce is never signed again.
   */
  chainCount: number;
  transaction: UnsignedTransaction;
  /** The merchants a gas-tank transaction is signed for (their gas accounting). */
  chargedTo?: readonly GasChargeShare[];
}

/**
 * Takes the wallet's next nonce, signs `transaction` with it and records the signed bytes in the
 * ledger, inside `tx` (the caller's database transaction, with whatever it locked first: the nonce
 * row comes after those locks). Returns the ledger row: its id, nonce, hash and wallet. Nothing is
 * broadcast here; the caller sends the row (broadcast.ts) once `tx` has committed.
 */
export async function signAndRecord(tx: Db, request: SignRequest): Promise<ChainTransaction> {
  const { network, wallet } = request;
  const key = keyOf(wallet);
  const nonce = await allocateNonce(tx, network, wallet.address, request.chainCount);
  const raw = await sign(key, network, request.transaction, nonce);
  return recordTransaction(tx, {
    network,
    walletRole: wallet.role,
    walletIndex: wallet.index,
    wallet: wallet.address,
    kind: request.kind,
    raw,
    chargedTo: request.chargedTo,
  });
}

/**
 * Signs `transaction` at the nonce of `newest` with its wallet's key and records it as replacing
 * `newest` (its gas charges carried over). A unique violation means another process replaced
 * `newest` first; the caller follows that replacement instead.
 */
export async function signReplacement(
  db: Db,
  newest: ChainTransaction,
  replacement: { kind: ChainTransactionKind; transaction: UnsignedTransaction },
): Promise<ChainTransaction> {
  const wallet: ServiceWallet = { role: newest.walletRole, index: newest.walletIndex, address: newest.wallet as Address };
  const raw = await sign(keyOf(wallet), newest.network, replacement.transaction, newest.nonce);
  return recordTransaction(db, {
    network: newest.network,
    walletRole: wallet.role,
    walletIndex: wallet.index,
    wallet: wallet.address,
    kind: replacement.kind,
    raw,
    replacesId: newest.id,
  });
}

/**
 * A deposit address's EIP-7702 authorization (its key signs offline; the address needs no BNB).
 * `authorization.nonce` is the address's own transaction count on the chain: no ledger nonce is
 * taken, the gas tank's batch carries it.
 */
export async function signDelegation(wallet: ServiceWallet, authorization: AuthorizationRequest): Promise<SignedAuthorization> {
  return keyOf(wallet).signAuthorization(authorization);
}

/**
 * Locks the wallet's nonce row until `tx` ends (step 5 of the money-out lock order,
 * lib/domain/transfers/money-out-locks.ts) without taking a nonce: the balances read under it see
 * every transaction of the wallet recorded before.
 */
export async function lockWalletNonce(tx: Db, network: string, address: string, chainCount: number): Promise<void> {
  await lockNonceRow(tx, network, address, chainCount);
}

/**
 * An authorization (nonce 0) by a fresh random key, for an eth_call that probes a chain's
 * EIP-7702 support: no key of the service signs it, nothing is recorded, nothing is sent.
 */
export async function probeAuthorization(
  contract: Address,
  chainId: number,
): Promise<{ address: Address; authorization: SignedAuthorization }> {
  const probe = privateKeyToAccount(generatePrivateKey());
  return { address: probe.address, authorization: await probe.signAuthorization({ address: contract, chainId, nonce: 0 }) };
}

/** The wallet's signing key, once it is known to derive the wallet's address. */
function keyOf(wallet: ServiceWallet): PrivateKeyAccount {
  const key = keyRingFor(getConfig().masterMnemonic).signer(PURPOSE_OF_ROLE[wallet.role], wallet.index);
  if (key.address.toLowerCase() !== wallet.address.toLowerCase())
    throw new Error(`the ${wallet.role} key #${wallet.index} is not the key of ${wallet.address}: nothing signed`);
  return key;
}

function sign(key: PrivateKeyAccount, network: string, transaction: UnsignedTransaction, nonce: number): Promise<Hex> {
  const chain = chainOf(requireNetworkConfig(network));
  return key.signTransaction({ chain, chainId: chain.id, ...transaction, nonce });
}
