/**
 * Where the batched-sweep contracts live, from the keys alone (CREATE2 through the deterministic
 * deployer): BatchSweeper(owner = the sweeper owner key, first operator = the first gas tank,
 * gasPerSweep) and DepositDelegate(sweeper). Chain-level: the service-address guard needs them
 * without the forwarding machinery that deploys and uses them (lib/engine/forwarding/batched/).
 */

import { type Abi, type Address, encodeDeployData, getContractAddress, type Hex, keccak256, stringToHex } from "viem";
import { getConfig } from "../../base/config";
import batchSweeperArtifact from "./contracts/batch-sweeper.json";
import depositDelegateArtifact from "./contracts/deposit-delegate.json";
import { keyRingFor } from "./keys";

export const CREATE2_DEPLOYER: Address = "0x4e59b44847b379578588920ca78fbf26c0b4956c";
// v2: the sweeper has an owner who can pause it and rotate its operator.
export const SALT: Hex = keccak256(stringToHex("bsc-pay/batched-sweeps/v2"));
export const batchSweeperAbi = batchSweeperArtifact.abi as Abi;
export const depositDelegateAbi = depositDelegateArtifact.abi as Abi;

export interface SweepContracts {
  sweeper: Address;
  delegate: Address;
  gasPerSweep: bigint;
  sweeperInit: Hex;
  delegateInit: Hex;
}

export function sweepContractsFor(owner: Address, firstOperator: Address, gasPerSweep: bigint): SweepContracts {
  const sweeperInit = encodeDeployData({
    abi: batchSweeperAbi,
    bytecode: batchSweeperArtifact.bytecode as Hex,
    args: [owner, firstOperator, gasPerSweep],
  });
  const sweeper = getContractAddress({ opcode: "CREATE2", from: CREATE2_DEPLOYER, salt: SALT, bytecode: sweeperInit });
  const delegateInit = encodeDeployData({ abi: depositDelegateAbi, bytecode: depositDelegateArtifact.bytecode as Hex, args: [sweeper] });
  const delegate = getContractAddress({ opcode: "CREATE2", from: CREATE2_DEPLOYER, salt: SALT, bytecode: delegateInit });
  return { sweeper, delegate, gasPerSweep, sweeperInit, delegateInit };
}

/**
 * The gas one batch entry may use at most. A BEP-20 transfer out of a delegated address takes
 * 30–60k; the bound keeps a batch of 100 within half of a 30M-gas block even when every entry
 * burns its whole allowance, and never exceeds MAX_SWEEP_GAS.
 */
const BATCH_ENTRY_GAS = 100_000n;

export function serviceSweepContracts(): SweepContracts {
  const config = getConfig();
  const gasPerSweep = config.maxSweepGas < BATCH_ENTRY_GAS ? config.maxSweepGas : BATCH_ENTRY_GAS;
  const keys = keyRingFor(config.masterMnemonic);
  // The first tank, whatever the current generation: the addresses never move.
  return sweepContractsFor(keys.sweeperOwnerAddress(), keys.gasTankAddress(0), gasPerSweep);
}
