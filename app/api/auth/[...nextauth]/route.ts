import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/auth-options";

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per request: they read the configuration, which is parsed at start-up.
const handler = (req: NextRequest, ctx: Context) => NextAuth(req, ctx, authOptions());

export { handler as GET, handler as POST };
