"use client";

import "./zod-jitless";
import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

/**
 * Renders /api/v1/openapi.json locally: no CDN, no telemetry, no hosted agent. Heavy (~3 MB): the
 * page imports it only on demand (full-reference.tsx), in the theme the page is in.
 */
export function ApiReference() {
  const dark = document.documentElement.classList.contains("dark");
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
        forceDarkModeState: dark ? "dark" : "light",
        hideDarkModeToggle: true,
      }}
    />
  );
}
