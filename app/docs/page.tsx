import { ArrowLeft, Download } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Logo } from "@/components/brand/logo";
import { ApiIndex } from "@/components/docs/api-index";
import { FullReference } from "@/components/docs/full-reference";
import { WithCode } from "@/components/docs/operation-entry";
import { DOCS_WORDS } from "@/components/docs/words";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { buttonVariants } from "@/components/ui/button";
import { openApiDocument } from "@/lib/web/openapi/document";
import { operationIndex } from "@/lib/web/openapi/operation-index";

export const metadata: Metadata = { title: DOCS_WORDS.title };

/**
 * The API reference: the operations by resource, server-rendered from the OpenAPI document the API
 * serves (readable with the first bytes), then the full interactive reference on demand.
 */
export default function DocsPage() {
  const doc = openApiDocument();
  return (
    <div className="min-h-dvh pb-20">
      <header className="sticky top-0 z-10 border-b bg-background/95 backdrop-blur">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-2 px-4 py-3 sm:px-6">
          <Link href="/" className="rounded-md focus-visible:outline-2 focus-visible:outline-ring">
            <Logo />
          </Link>
          <nav aria-label={DOCS_WORDS.headerNav} className="flex items-center gap-1">
            <ThemeToggle />
            <a
              href="/api/v1/openapi.json"
              download
              aria-label={DOCS_WORDS.downloadLabel}
              className={buttonVariants({ variant: "ghost", size: "sm" })}
            >
              <Download aria-hidden /> <span className="hidden sm:inline">{DOCS_WORDS.download}</span>
            </a>
            <Link
              href="/dashboard"
              aria-label={DOCS_WORDS.backToDashboardLabel}
              className={buttonVariants({ variant: "outline", size: "sm" })}
            >
              <ArrowLeft aria-hidden /> {DOCS_WORDS.backToDashboard}
            </Link>
          </nav>
        </div>
      </header>
      <main>
        <div className="mx-auto max-w-5xl px-4 pt-8 sm:px-6">
          <p className="text-sm font-medium text-muted-foreground">{DOCS_WORDS.title}</p>
          <h1 className="mt-1 text-3xl font-semibold tracking-tight">{doc.info.title}</h1>
          <p className="mt-3 max-w-3xl text-sm leading-relaxed text-muted-foreground">
            <WithCode text={doc.info.description ?? ""} />
          </p>
          <ApiIndex groups={operationIndex(doc)} />
        </div>
        <FullReference />
      </main>
    </div>
  );
}
