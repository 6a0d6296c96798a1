// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice A BEP-20 whose transferFrom tries to forge BatchPayer's receipt: it calls BatchPayer.pay
/// again from inside the payment, for the same recipient and amount, answering that inner transfer
/// "true" without moving anything, and then refuses the real transfer. Were BatchPayer to allow the
/// inner call, the receipt would carry a `Paid(ok = true)` for the item before its real `Paid(ok =
/// false)` (tests/integration/payout-limits.test.ts).
contract ForgingToken {
    string public constant name = "Forging Token";
    string public constant symbol = "FRG";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    bool private inside;
    /// Whether the last inner call to BatchPayer succeeded.
    bool public forged;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function mint(address to, uint256 value) external {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        require(balanceOf[msg.sender] >= value, "balance");
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address, address to, uint256 value) external returns (bool) {
        if (inside) return true;
        inside = true;
        address[] memory recipients = new address[](1);
        recipients[0] = to;
        uint256[] memory amounts = new uint256[](1);
        amounts[0] = value;
        (bool ok, ) = msg.sender.call(
            abi.encodeWithSignature("pay(address,address[],uint256[],uint256)", address(this), recipients, amounts, uint256(30000))
        );
        forged = ok;
        inside = false;
        return false;
    }
}
