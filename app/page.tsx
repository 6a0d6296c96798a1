import { ArrowRight, BookOpen, Forward, QrCode, ShieldCheck, Wallet } from "lucide-react";
import Link from "next/link";
import { Logo } from "@/components/brand/logo";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { buttonVariants } from "@/components/ui/button";

const FEATURES = [
  {
    icon: QrCode,
    title: "A fresh address per payment",
    text: "Each payment gets its own deposit address, QR code and hosted checkout page.",
  },
  {
    icon: Forward,
    title: "Forwarded to your wallet",
    text: "Tokens that arrive are swept to your wallet exactly once, with gas paid by the gateway.",
  },
  { icon: Wallet, title: "Withdrawals", text: "Send tokens from your domain's wallet from the dashboard or the API." },
  { icon: ShieldCheck, title: "Self-hosted", text: "Your keys derive from your mnemonic. Runs on one machine, or many." },
];

export default function HomePage() {
  return (
    <div className="min-h-dvh">
      <header className="mx-auto flex max-w-5xl items-center justify-between px-4 py-4 sm:px-6">
        <Logo />
        <nav aria-label="Account" className="flex items-center gap-1">
          <ThemeToggle />
          <Link href="/login" className={buttonVariants({ variant: "ghost" })}>
            Sign in
          </Link>
          <Link href="/signup" className={buttonVariants()}>
            Sign up
          </Link>
        </nav>
      </header>
      <main className="mx-auto max-w-5xl px-4 pt-12 pb-20 sm:px-6 sm:pt-20">
        <section className="max-w-2xl">
          <h1 className="text-4xl font-semibold tracking-tight text-balance sm:text-5xl">Accept stablecoins on BNB Smart Chain.</h1>
          <p className="mt-4 text-lg text-muted-foreground">
            BSC Pay is a self-hostable payment gateway for BEP-20 tokens: create a payment with one API call, and the tokens land in your
            wallet within seconds of the payer sending them.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link href="/signup" className={buttonVariants({ variant: "brand", size: "lg" })}>
              Create an account <ArrowRight aria-hidden />
            </Link>
            <Link href="/docs" className={buttonVariants({ variant: "outline", size: "lg" })}>
              <BookOpen aria-hidden /> API reference
            </Link>
          </div>
        </section>
        <section aria-label="Features" className="mt-16 grid gap-4 sm:grid-cols-2">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-xl border bg-card p-5">
              <Icon className="size-5 text-muted-foreground" aria-hidden />
              <h2 className="mt-3 font-semibold">{title}</h2>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
            </div>
          ))}
        </section>
        <p className="mt-12 text-sm text-muted-foreground">
          Operators:{" "}
          <Link href="/api/health" className="underline underline-offset-4">
            service status
          </Link>{" "}
          ·{" "}
          <Link href="/api/v1/openapi.json" className="underline underline-offset-4">
            openapi.json
          </Link>
        </p>
      </main>
    </div>
  );
}
