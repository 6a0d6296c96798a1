/**
 * The React shop of pay-button.spec.ts: a page with the SDK's PayButton that writes what the
 * button reports where the test can read it. Rendered to HTML by the test (server side) and
 * hydrated in the browser by pay-button-shop.client.tsx, bundled with esbuild.
 */
import { useEffect, useState } from "react";
import { type CheckoutOutcome, PayButton } from "../../../sdk/src/react";

/** The shop's own server creates the payment (with its API key) and answers the session id. */
export async function createSessionOnShopServer(): Promise<string> {
  const res = await fetch("/session", { method: "POST" });
  if (!res.ok) throw new Error(`the shop could not create the payment: ${await res.text()}`);
  return res.text();
}

const show = (o: CheckoutOutcome | null) => (o ? `${o.status ?? "none"} ${o.sessionId}` : "");

export function ShopApp({ baseUrl }: { baseUrl: string }) {
  const [status, setStatus] = useState<CheckoutOutcome | null>(null);
  const [completed, setCompleted] = useState<CheckoutOutcome | null>(null);
  const [outcome, setOutcome] = useState<CheckoutOutcome | null>(null);
  const [error, setError] = useState("");
  // The shopper may leave while the payment is being started (the button unmounts mid-way).
  const [buttonShown, setButtonShown] = useState(true);
  // Tells the test that the button has its click handler (the server's HTML had none).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <main>
      <h1>Coffee shop (React)</h1>
      <p>One flat white, 3 DUSD.</p>
      {buttonShown ? (
        <PayButton
          baseUrl={baseUrl}
          createSession={createSessionOnShopServer}
          onStatus={setStatus}
          onCompleted={setCompleted}
          onOutcome={setOutcome}
          onError={(e) => setError(e.message)}
        />
      ) : (
        <p>Back to the cart.</p>
      )}
      <p>
        Status: <output data-testid="status">{show(status)}</output>
      </p>
      <p>
        Completed: <output data-testid="completed">{show(completed)}</output>
      </p>
      <p>
        Outcome: <output data-testid="outcome">{show(outcome)}</output>
      </p>
      <p>
        Error: <output data-testid="error-report">{error}</output>
      </p>
      <button type="button" onClick={() => setButtonShown(false)}>
        Back to the cart
      </button>
    </main>
  );
}
