// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice Pays BNB with an internal call, as a Safe, a 4337 smart wallet or an exchange's hot
/// wallet contract does: the transaction goes to this contract, and the deposit address receives
/// the value from inside it — no transaction of its own, so no block reader sees it. The balance
/// poller's tests pay sessions through it.
contract InternalPayer {
    error Refused();

    /// Forwards the value sent with the call to `to`.
    function pay(address to) external payable {
        (bool ok,) = to.call{value: msg.value}("");
        if (!ok) revert Refused();
    }

    /// Splits the value sent between several recipients (one transaction, several deposit addresses).
    function payMany(address[] calldata to, uint256[] calldata amounts) external payable {
        for (uint256 i = 0; i < to.length; i++) {
            (bool ok,) = to[i].call{value: amounts[i]}("");
            if (!ok) revert Refused();
        }
    }
}
