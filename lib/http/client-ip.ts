/**
 * The client's address as the nearest proxy saw it. Next.js sets X-Forwarded-For to the socket's
 * address only when the request has none, and a reverse proxy (nginx `$proxy_add_x_forwarded_for`)
 * appends the address it saw: the last entry is the one a client cannot choose, unless it talks
 * to this server directly. Run BSC Pay behind a proxy that sets the header (see README).
 */
export function clientIp(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  if (forwarded) {
    const last = forwarded
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)
      .at(-1);
    if (last) return last.slice(0, 64);
  }
  return headers.get("x-real-ip")?.trim().slice(0, 64) || "unknown";
}
