"use client";

import "./zod-jitless";
import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

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
