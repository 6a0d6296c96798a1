/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM + data files that bundlers must not touch; anvil is a native binary.
  serverExternalPackages: ["@electric-sql/pglite", "@foundry-rs/anvil", "pino", "solc"],
  poweredByHeader: false,
  // Browsers still ask for /favicon.ico now and then (before the page's <link rel="icon"> is read):
  // answer with the app's icon rather than a 404 in the payer's console.
  async rewrites() {
    return [{ source: "/favicon.ico", destination: "/icon.svg" }];
  },
  // The plan page was /dashboard/package until the code settled on one word: old bookmarks still land.
  async redirects() {
    return [{ source: "/dashboard/package", destination: "/dashboard/plan", permanent: true }];
  },
  // Pages get their full set (CSP, frame-ancestors, HSTS) from proxy.ts; API answers and static files these.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
