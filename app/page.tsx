import Link from "next/link";

export default function HomePage() {
  return (
    <main className="container">
      <h1>BSC Pay</h1>
      <p className="muted">
        A self-hostable payment gateway for BEP-20 tokens on BNB Smart Chain: a fresh deposit address and QR code per
        payment, detection on chain within seconds, automatic forwarding to your wallet, and withdrawals from your
        domain&apos;s wallet.
      </p>
      <div className="grid">
        <section className="card">
          <h2>Accept payments</h2>
          <p>
            <code>POST /api/v1/payment/create</code> with your API key returns a deposit address, a QR code and a hosted
            checkout page. Poll <code>/status</code> until it is completed.
          </p>
        </section>
        <section className="card">
          <h2>Get paid, automatically</h2>
          <p>Tokens that reach a deposit address are forwarded to your merchant wallet, exactly once.</p>
        </section>
        <section className="card">
          <h2>API reference</h2>
          <p>
            <Link href="/docs">/docs</Link> renders the OpenAPI 3.1 document (<code>/api/v1/openapi.json</code>) generated from
            the schemas that validate every request.
          </p>
        </section>
        <section className="card">
          <h2>Service status</h2>
          <p>
            <Link href="/api/health">/api/health</Link> shows the database, each network&apos;s head block and the scanner&apos;s lag.
          </p>
        </section>
      </div>
    </main>
  );
}
