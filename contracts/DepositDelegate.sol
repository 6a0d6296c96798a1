// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice The code a deposit address runs once it has delegated to it (EIP-7702). It does one thing:
/// move a token balance, or BNB itself, and only when the service's BatchSweeper asks. It keeps no
/// storage, so the delegation gives nobody anything to take over; `sweeper` is immutable (part of the code).
contract DepositDelegate {
    /// The conventional address of the chain's native coin (lib/engine/chain/native.ts): no contract can live there.
    address public constant NATIVE_TOKEN = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    address public immutable sweeper;
    /// This code's own address, fixed at deployment: a delegated address answers with the delegate it
    /// runs, so the service sees which addresses still run an older delegate and authorizes them again.
    address public immutable implementation;

    error NotSweeper();
    error NotAContract();
    error TransferFailed();

    constructor(address sweeper_) {
        sweeper = sweeper_;
        implementation = address(this);
    }

    /// Plain BNB still arrives (a payer's BNB, or a classic gas top-up of a delegated address, must not bounce).
    receive() external payable {}

    /// @return true, explicitly: an address without this code answers a call with no data at all,
    /// which the sweeper must not mistake for a sweep.
    function sweep(address token, address to, uint256 amount) external returns (bool) {
        if (msg.sender != sweeper) revert NotSweeper();
        bool ok;
        if (token == NATIVE_TOKEN) {
            // BNB itself: the value, with no data, and none of the recipient's answer copied (a
            // contract target cannot make us pay for a huge one). Its gas is the sweeper's allowance.
            assembly {
                ok := call(gas(), to, amount, 0, 0, 0, 0)
            }
            if (!ok) revert TransferFailed();
            return true;
        }
        // A call to an address without code "succeeds" and moves nothing.
        if (token.code.length == 0) revert NotAContract();
        bytes memory data = abi.encodeWithSelector(0xa9059cbb, to, amount);
        uint256 size;
        uint256 word;
        // At most 32 bytes of the token's answer are copied: a token cannot make us pay for a huge one.
        assembly {
            ok := call(gas(), token, 0, add(data, 32), mload(data), 0, 32)
            size := returndatasize()
            word := mload(0)
        }
        if (!ok || (size != 0 && (size < 32 || word != 1))) revert TransferFailed();
        return true;
    }
}
