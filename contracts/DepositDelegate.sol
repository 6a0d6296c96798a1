// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice The code a deposit address runs once it has delegated to it (EIP-7702). It does one thing:
/// move a token balance, and only when the service's BatchSweeper asks. It keeps no storage, so the
/// delegation gives nobody anything to take over; `sweeper` is immutable (part of the code).
contract DepositDelegate {
    address public immutable sweeper;

    error NotSweeper();
    error NotAContract();
    error TransferFailed();

    constructor(address sweeper_) {
        sweeper = sweeper_;
    }

    /// Plain BNB still arrives (a classic gas top-up of a delegated address must not bounce).
    receive() external payable {}

    /// @return true, explicitly: an address without this code answers a call with no data at all,
    /// which the sweeper must not mistake for a sweep.
    function sweep(address token, address to, uint256 amount) external returns (bool) {
        if (msg.sender != sweeper) revert NotSweeper();
        // A call to an address without code "succeeds" and moves nothing.
        if (token.code.length == 0) revert NotAContract();
        bytes memory data = abi.encodeWithSelector(0xa9059cbb, to, amount);
        bool ok;
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
