// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice A BEP-20 written by an attacker, for the tests: it can burn all gas on transfer,
/// refuse transfers only when they pay gas (its simulation passes, the mined sweep reverts),
/// lie about balances with Transfer events that move nothing, and emit logs with the Transfer
/// topic that are not ERC-20 Transfers at all. Only its owner switches these on.
contract HostileToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    address public immutable owner;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    bool public burnGas;
    bool public revertWhenPaid;
    /// Refuses, when paid, only transfers out of these addresses (one bad entry in a batch).
    mapping(address => bool) public refusesFrom;
    /// Emits a look-alike of BatchSweeper's Swept(forgedIndex, ..., ok = true) on every transfer.
    bool public forgeSwept;
    uint256 public forgedIndex;

    bytes32 private constant TRANSFER_TOPIC = keccak256("Transfer(address,address,uint256)");
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Swept(uint256 indexed index, address indexed from, address indexed token, address to, uint256 amount, bool ok);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        owner = msg.sender;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "HostileToken: not owner");
        _;
    }

    function mint(address to, uint256 value) external onlyOwner {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function setBurnGas(bool on) external onlyOwner {
        burnGas = on;
    }

    function setRevertWhenPaid(bool on) external onlyOwner {
        revertWhenPaid = on;
    }

    function setRefusesFrom(address who, bool on) external onlyOwner {
        refusesFrom[who] = on;
    }

    function setForgeSwept(bool on, uint256 index) external onlyOwner {
        forgeSwept = on;
        forgedIndex = index;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        if (msg.sender != owner) {
            require(!(refusesFrom[msg.sender] && tx.gasprice > 0), "HostileToken: refused");
            if (forgeSwept) emit Swept(forgedIndex, msg.sender, address(this), to, value, true);
            if (burnGas) {
                // Needs more than 5M gas, then burns what it got: an uncapped sweep pays it all.
                require(gasleft() > 5_000_000, "HostileToken: more gas");
                uint256 spin;
                while (gasleft() > 30_000) spin++;
            }
            // eth_estimateGas runs at gas price 0 here; a real transaction pays.
            require(!(revertWhenPaid && tx.gasprice > 0), "HostileToken: refused");
        }
        uint256 balance = balanceOf[msg.sender];
        require(balance >= value, "HostileToken: balance");
        unchecked {
            balanceOf[msg.sender] = balance - value;
        }
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }

    /// A Transfer event that moves nothing (e.g. 2^256 - 1 to overflow a careless ledger).
    function fakeTransfer(address from, address to, uint256 value) external onlyOwner {
        emit Transfer(from, to, value);
    }

    /// The Transfer topic with `to` indexed, but 64 bytes of data: not an ERC-20 Transfer.
    function emitMalformedTransfer(address to, uint256 a, uint256 b) external {
        bytes32 topic = TRANSFER_TOPIC;
        address from = msg.sender;
        assembly {
            let ptr := mload(0x40)
            mstore(ptr, a)
            mstore(add(ptr, 0x20), b)
            log3(ptr, 0x40, topic, from, to)
        }
    }

    /// The Transfer topic with a fourth topic (an ERC-721-style transfer) to the address.
    function emitFourTopicTransfer(address to, uint256 tokenId) external {
        bytes32 topic = TRANSFER_TOPIC;
        address from = msg.sender;
        assembly {
            log4(0, 0, topic, from, to, tokenId)
        }
    }
}
