// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice A price feed written by an attacker (or broken), for the tests: it can revert, answer
/// with too few bytes, or burn all the gas it is given, on latestRoundData and decimals alike.
contract HostileFeed {
    /// 0 answers (1.00000000, 8 decimals, updated now), 1 reverts, 2 answers one word, 3 burns all gas.
    uint8 public mode;

    constructor(uint8 mode_) {
        mode = mode_;
    }

    function decimals() external view returns (uint8) {
        _misbehave();
        return 8;
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        _misbehave();
        return (1, 1e8, block.timestamp, block.timestamp, 1);
    }

    function _misbehave() private view {
        if (mode == 1) revert("HostileFeed: no");
        if (mode == 2) {
            assembly {
                mstore(0, 1)
                return(0, 32)
            }
        }
        if (mode == 3) {
            uint256 i;
            while (gasleft() > 0) i++;
        }
    }
}
