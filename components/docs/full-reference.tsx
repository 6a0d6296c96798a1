"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DOCS_WORDS } from "./words";

// Scalar (~3 MB of script and styles) is fetched only once asked for, and never server-rendered.
const ApiReference = dynamic(() => import("./api-reference").then((m) => m.ApiReference), {
  ssr: false,
  loading: () => <p className="px-4 py-6 text-sm text-muted-foreground sm:px-6">{DOCS_WORDS.full.loading}</p>,
});

/** The interactive reference (schemas, examples, a console), below the index, on demand. */
export function FullReference() {
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="full-reference-heading" className="mt-16 border-t pt-10">
      <div className="mx-auto max-w-5xl px-4 sm:px-6">
        <h2 id="full-reference-heading" className="text-xl font-semibold tracking-tight">
          {DOCS_WORDS.full.heading}
        </h2>
        <p className="mt-1 max-w-2xl text-sm text-muted-foreground">{DOCS_WORDS.full.text}</p>
        {!open && (
          <Button variant="outline" className="mt-4" onClick={() => setOpen(true)}>
            {DOCS_WORDS.full.load}
          </Button>
        )}
      </div>
      {open && (
        <div className="mt-6">
          <ApiReference />
        </div>
      )}
    </section>
  );
}
