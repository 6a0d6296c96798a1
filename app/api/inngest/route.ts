import { serve } from "inngest/next";
import { type NextRequest, NextResponse } from "next/server";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { getConfig } from "@/lib/base/config";

const handlers = serve({ client: inngest, functions });

type Context = { params: Promise<Record<string, string>> };
const notServed = () =>
  NextResponse.json(
    { success: false, error: { code: "NOT_FOUND", message: "Inngest is not in use: set JOBS=inngest to serve /api/inngest" } },
    { status: 404 },
  );

/** Served only when JOBS=inngest (docs/design.md §10); the embedded runner does the work otherwise. */
function when(handler: (req: NextRequest, ctx: Context) => Promise<Response>) {
  return (req: NextRequest, ctx: Context) => (getConfig().jobs.mode === "inngest" ? handler(req, ctx) : notServed());
}

export const GET = when(handlers.GET as never);
export const POST = when(handlers.POST as never);
export const PUT = when(handlers.PUT as never);
