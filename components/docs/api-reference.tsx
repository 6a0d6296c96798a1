"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";
import { z } from "zod";

// zod (inside the reference) probes for eval with a caught `new Function`; the page's CSP has no
// 'unsafe-eval', so the probe would only report a violation. Without it zod validates the same way.
z.config({ jitless: true });

/** Renders /api/v1/openapi.json locally: no CDN, no telemetry, no hosted agent. */
export function ApiReference() {
  return (
    <ApiReferenceReact
      configuration={{
        url: "/api/v1/openapi.json",
        telemetry: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: "never",
        hideClientButton: false,
        withDefaultFonts: false,
      }}
    />
  );
}
