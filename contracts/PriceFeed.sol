// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice A price feed that speaks Chainlink's AggregatorV3Interface, for the embedded local chain
/// and the tests: its owner sets each round's answer. An `updatedAt` of 0 makes the round follow the
/// chain's clock (it reads as updated in the block being read, a feed that never goes stale), so a
/// long-running dev chain keeps a fresh price; a test pins `updatedAt` to make it stale.
/// Not for production use.
contract PriceFeed {
    struct Round {
        int256 answer;
        uint256 startedAt;
        /// 0: follows block.timestamp while it is the latest round.
        uint256 updatedAt;
    }

    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;
    address public immutable owner;
    uint80 public latestRound;
    mapping(uint80 => Round) private rounds;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    constructor(uint8 decimals_, string memory description_, int256 answer) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        _setRound(answer, 0);
    }

    /// @notice Starts a new round with this answer, updated at `updatedAt` (0: follows the clock).
    function setRoundData(int256 answer, uint256 updatedAt) external {
        require(msg.sender == owner, "PriceFeed: not owner");
        _setRound(answer, updatedAt);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return getRoundData(latestRound);
    }

    function getRoundData(uint80 roundId_)
        public
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round memory round = rounds[roundId_];
        require(round.startedAt != 0, "No data present");
        uint256 updated = round.updatedAt;
        if (updated == 0) updated = roundId_ == latestRound ? block.timestamp : round.startedAt;
        return (roundId_, round.answer, round.startedAt, updated, roundId_);
    }

    function _setRound(int256 answer, uint256 updatedAt) private {
        latestRound += 1;
        rounds[latestRound] = Round(answer, block.timestamp, updatedAt);
        emit AnswerUpdated(answer, latestRound, updatedAt == 0 ? block.timestamp : updatedAt);
    }
}
