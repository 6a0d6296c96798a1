// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice Pays many recipients of one token in one transaction, for the wallet that calls it
/// (a domain's withdrawal wallet, after approving this contract for the chunk's total). It keeps no
/// storage and moves only the caller's own tokens (transferFrom(msg.sender, …)), so a leftover
/// allowance gives nobody anything. Each transfer runs with a bounded gas allowance and at most 32
/// bytes of the token's answer are copied; its outcome is reported in `Paid`, so one refused
/// recipient fails only its own item (lib/domain/payout-batches).
contract BatchPayer {
    event Paid(uint256 indexed position, address indexed to, uint256 amount, bool ok);

    error LengthMismatch();
    error NotAContract();
    error OutOfGas();

    function pay(address token, address[] calldata to, uint256[] calldata amounts, uint256 gasPerTransfer) external {
        if (to.length != amounts.length) revert LengthMismatch();
        // A call to an address without code "succeeds" and moves nothing.
        if (token.code.length == 0) revert NotAContract();
        for (uint256 i = 0; i < to.length; i++) {
            // Never hand a transfer less than its allowance (EIP-150 would silently starve it and
            // report a healthy recipient as failed): the whole transaction reverts instead.
            if (gasleft() < gasPerTransfer + 20000) revert OutOfGas();
            bytes memory data = abi.encodeWithSelector(0x23b872dd, msg.sender, to[i], amounts[i]);
            bool ok;
            uint256 size;
            uint256 word;
            assembly {
                mstore(0, 0)
                ok := call(gasPerTransfer, token, 0, add(data, 32), mload(data), 0, 32)
                size := returndatasize()
                word := mload(0)
            }
            emit Paid(i, to[i], amounts[i], ok && (size == 0 || (size >= 32 && word == 1)));
        }
    }
}
