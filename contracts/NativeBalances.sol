// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice Never deployed: its creation code is sent as an eth_call without a recipient (a
/// "deployless" read), and the constructor answers the BNB balance of each address given at the
/// block the call is pinned to: one zero byte, then 16 bytes (a uint128) per address. What a
/// constructor returns is checked like deployed code, so it stays under EIP-170's 24,576 bytes and
/// never starts with 0xEF (EIP-3541); the creation code under EIP-3860's 49,152 bytes: 1,000
/// addresses a call fit both. The balance poller reads the open deposit addresses this way: ~100
/// bytes an address on the wire, where Multicall3's getEthBalance takes ~700.
contract NativeBalances {
    error BalanceTooLarge();

    constructor(address[] memory owners) {
        uint256 length = owners.length;
        bytes memory answer = new bytes(1 + 16 * length);
        for (uint256 i = 0; i < length; i++) {
            uint256 held = owners[i].balance;
            // No BNB balance comes near it (the supply is ~2^87 wei): the caller falls back to Multicall3.
            if (held > type(uint128).max) revert BalanceTooLarge();
            assembly {
                mstore(add(add(answer, 33), mul(i, 16)), shl(128, held))
            }
        }
        assembly {
            return(add(answer, 32), mload(answer))
        }
    }
}
