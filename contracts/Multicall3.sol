// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice The read part of Multicall3 (mds1/multicall, deployed at 0xcA11bde05977b3631167028862bE2a173976CA11
/// on BSC and most chains), ABI-compatible with it: the embedded local chain and the tests put it at
/// that address so balance reads are batched there as they are on BSC.
contract Multicall3 {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
        uint256 length = calls.length;
        returnData = new Result[](length);
        for (uint256 i = 0; i < length; i++) {
            Call3 calldata call = calls[i];
            (bool success, bytes memory data) = call.target.call(call.callData);
            require(success || call.allowFailure, "Multicall3: call failed");
            returnData[i] = Result(success, data);
        }
    }

    function getEthBalance(address addr) public view returns (uint256 balance) {
        balance = addr.balance;
    }
}
