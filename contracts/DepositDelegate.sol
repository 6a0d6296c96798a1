// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice The code a deposit address runs once it has delegated to it (EIP-7702). It does one thing:
/// move a token balance, and only when the service's BatchSweeper asks. It keeps no storage, so the
/// delegation gives nobody anything to take over; `sweeper` is immutable (part of the code).
contract DepositDelegate {
    address public immutable sweeper;

    error NotSweeper();
    error TransferFailed();

    constructor(address sweeper_) {
        sweeper = sweeper_;
    }

    /// @return true, explicitly: an address without this code answers a call with no data at all,
    /// which the sweeper must not mistake for a sweep.
    function sweep(address token, address to, uint256 amount) external returns (bool) {
        if (msg.sender != sweeper) revert NotSweeper();
        (bool ok, bytes memory data) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
        if (!ok || (data.length != 0 && (data.length < 32 || !abi.decode(data, (bool))))) revert TransferFailed();
        return true;
    }
}
