// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IDepositDelegate {
    function sweep(address token, address to, uint256 amount) external returns (bool);
}

/// @notice Sweeps many deposit addresses (delegated to DepositDelegate) in one transaction of the gas
/// tank. Each sweep runs with a bounded amount of gas and its own success flag: one reverting or
/// gas-hungry token fails only its own entry, never the batch.
///
/// The operator (the gas tank) is the only caller of sweepBatch; an owner key that signs nothing
/// else can pause the sweeper and hand the operator role to another key. A leaked gas-tank key is
/// then stopped by one transaction of the owner, and batches go on under a fresh tank, without any
/// deposit address delegating again (the delegate trusts this contract, not the operator).
contract BatchSweeper {
    struct Sweep {
        address from;
        address token;
        address to;
        uint256 amount;
    }

    address public immutable owner;
    uint256 public immutable gasPerSweep;
    address public operator;
    bool public paused;

    event Swept(uint256 indexed index, address indexed from, address indexed token, address to, uint256 amount, bool ok);
    event OperatorChanged(address indexed previous, address indexed next);
    event PausedChanged(bool paused);

    error NotOperator();
    error NotOwner();
    error IsPaused();
    error ZeroOperator();
    /// The transaction's gas ran short for entry `index`: the whole batch reverts rather than
    /// reporting entries as failed that never had their full allowance.
    error NotEnoughGas(uint256 index);

    /// Owner and operator are arguments, not msg.sender: the service deploys through the CREATE2
    /// proxy, so the address follows from the keys and the allowance alone.
    constructor(address owner_, address operator_, uint256 gasPerSweep_) {
        owner = owner_;
        operator = operator_;
        gasPerSweep = gasPerSweep_;
    }

    function setOperator(address next) external {
        if (msg.sender != owner) revert NotOwner();
        if (next == address(0)) revert ZeroOperator();
        emit OperatorChanged(operator, next);
        operator = next;
    }

    function setPaused(bool paused_) external {
        if (msg.sender != owner) revert NotOwner();
        paused = paused_;
        emit PausedChanged(paused_);
    }

    function sweepBatch(Sweep[] calldata sweeps) external returns (bool[] memory ok) {
        if (msg.sender != operator) revert NotOperator();
        if (paused) revert IsPaused();
        ok = new bool[](sweeps.length);
        uint256 allowance = gasPerSweep;
        for (uint256 i = 0; i < sweeps.length; i++) {
            // A call gets at most 63/64 of what is left (EIP-150): make sure that is the full allowance.
            if (gasleft() < (allowance * 64) / 63 + 20_000) revert NotEnoughGas(i);
            Sweep calldata s = sweeps[i];
            bytes memory data = abi.encodeCall(IDepositDelegate.sweep, (s.token, s.to, s.amount));
            address from = s.from;
            bool success;
            uint256 size;
            uint256 word;
            // Only the delegate's explicit `true` counts (an address that is not delegated answers
            // empty), and at most 32 bytes of any answer are copied.
            assembly {
                success := call(allowance, from, 0, add(data, 32), mload(data), 0, 32)
                size := returndatasize()
                word := mload(0)
            }
            ok[i] = success && size == 32 && word == 1;
            emit Swept(i, s.from, s.token, s.to, s.amount, ok[i]);
        }
    }
}
