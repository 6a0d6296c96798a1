// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IDepositDelegate {
    function sweep(address token, address to, uint256 amount) external returns (bool);
}

/// @notice Sweeps many deposit addresses (delegated to DepositDelegate) in one transaction of the gas
/// tank. Each sweep runs with a bounded amount of gas and its own success flag: one reverting or
/// gas-hungry token fails only its own entry, never the batch.
contract BatchSweeper {
    struct Sweep {
        address from;
        address token;
        address to;
        uint256 amount;
    }

    address public immutable operator;
    uint256 public immutable gasPerSweep;

    event Swept(uint256 indexed index, address indexed from, address indexed token, address to, uint256 amount, bool ok);

    error NotOperator();

    constructor(uint256 gasPerSweep_) {
        operator = msg.sender;
        gasPerSweep = gasPerSweep_;
    }

    function sweepBatch(Sweep[] calldata sweeps) external returns (bool[] memory ok) {
        if (msg.sender != operator) revert NotOperator();
        ok = new bool[](sweeps.length);
        for (uint256 i = 0; i < sweeps.length; i++) {
            Sweep calldata s = sweeps[i];
            (bool success, bytes memory data) = s.from.call{gas: gasPerSweep}(
                abi.encodeCall(IDepositDelegate.sweep, (s.token, s.to, s.amount))
            );
            // Only the delegate's explicit `true` counts: an address that is not delegated answers empty.
            ok[i] = success && data.length == 32 && abi.decode(data, (uint256)) == 1;
            emit Swept(i, s.from, s.token, s.to, s.amount, ok[i]);
        }
    }
}
