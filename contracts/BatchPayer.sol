// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Pays many recipients of one token — or of BNB itself — in one transaction, for the wallet
/// that calls it (a domain's withdrawal wallet, after approving this contract for the chunk's total;
/// for BNB, sending the chunk's total as value). It keeps no storage and moves only the caller's own
/// funds (transferFrom(msg.sender, …), or the value of this call), so a leftover allowance gives
/// nobody anything. Each transfer runs with a bounded gas allowance and at most 32 bytes of the
/// token's answer are copied; its outcome is reported in `Paid`, so one refused recipient fails only
/// its own item (lib/domain/payout-batches). A call made while a payment runs (a token's transferFrom
/// or a recipient calling back in) reverts: only the outer call emits `Paid`, so a receipt's events
/// cannot be forged from inside it.
contract BatchPayer {
    event Paid(uint256 indexed position, address indexed to, uint256 amount, bool ok);

    error LengthMismatch();
    error NotAContract();
    error OutOfGas();
    error Reentered();
    error ValueMismatch();
    error RefundFailed();

    bool transient private running;

    modifier once() {
        if (running) revert Reentered();
        running = true;
        _;
        running = false;
    }

    function pay(address token, address[] calldata to, uint256[] calldata amounts, uint256 gasPerTransfer) external once {
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

    /// @notice BNB to each recipient from this call's value, which must be the chunk's total; what a
    /// recipient refuses goes back to the caller in the same transaction.
    function payNative(address[] calldata to, uint256[] calldata amounts, uint256 gasPerTransfer) external payable once {
        if (to.length != amounts.length) revert LengthMismatch();
        uint256 total = 0;
        for (uint256 i = 0; i < amounts.length; i++) total += amounts[i];
        if (total != msg.value) revert ValueMismatch();
        uint256 refused = 0;
        for (uint256 i = 0; i < to.length; i++) {
            if (gasleft() < gasPerTransfer + 20000) revert OutOfGas();
            address recipient = to[i];
            uint256 amount = amounts[i];
            bool ok;
            assembly {
                // No return data is copied: a recipient cannot make the caller pay for a large answer.
                ok := call(gasPerTransfer, recipient, amount, 0, 0, 0, 0)
            }
            if (!ok) refused += amount;
            emit Paid(i, recipient, amount, ok);
        }
        if (refused > 0) {
            address payer = msg.sender;
            bool back;
            assembly {
                back := call(gas(), payer, refused, 0, 0, 0, 0)
            }
            if (!back) revert RefundFailed();
        }
    }
}
