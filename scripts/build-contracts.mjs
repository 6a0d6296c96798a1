// Compiles contracts/*.sol with the npm solc compiler and writes ABI + bytecode JSON to
// lib/engine/chain/contracts/ (and contracts/test/*.sol, the tests' hostile contracts, to
// tests/helpers/contracts/); both are committed so that nothing compiles at run time.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import solc from "solc";

const targets = [
  ["contracts", join("lib", "engine", "chain", "contracts")],
  [join("contracts", "test"), join("tests", "helpers", "contracts")],
];
for (const [sourceDir, outDir] of targets) compile(sourceDir, outDir);

function compile(sourceDir, outDir) {
  const sources = Object.fromEntries(
    readdirSync(sourceDir)
      .filter((file) => file.endsWith(".sol"))
      .map((file) => [file, { content: readFileSync(join(sourceDir, file), "utf8") }]),
  );
  const input = {
    language: "Solidity",
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "cancun",
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    for (const e of errors) console.error(e.formattedMessage);
    process.exit(1);
  }
  mkdirSync(outDir, { recursive: true });
  for (const [file, contracts] of Object.entries(output.contracts)) {
    for (const [name, artifact] of Object.entries(contracts)) {
      if (artifact.evm.bytecode.object === "") continue; // an interface
      const target = join(outDir, `${kebab(name)}.json`);
      const json = {
        contractName: name,
        source: `${sourceDir}/${basename(file)}`,
        compiler: solc.version(),
        abi: artifact.abi,
        bytecode: `0x${artifact.evm.bytecode.object}`,
        deployedBytecode: `0x${artifact.evm.deployedBytecode.object}`,
      };
      writeFileSync(target, `${JSON.stringify(json, null, 2)}\n`);
      console.log(`wrote ${target}`);
    }
  }
}

function kebab(name) {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}
