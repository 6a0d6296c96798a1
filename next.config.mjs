/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM + data files that bundlers must not touch; anvil is a native binary.
  serverExternalPackages: ["@electric-sql/pglite", "@foundry-rs/anvil", "pino", "solc"],
  poweredByHeader: false,
};

export default nextConfig;
