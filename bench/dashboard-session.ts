/**
 * A signed-in dashboard session over HTTP, as the login form makes one: next-auth's CSRF token,
 * then the credentials callback. Answers the Cookie header the dashboard's pages expect.
 */
export async function signInDashboard(url: string, email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair?.indexOf("=") ?? -1;
      if (pair && at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${url}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signedIn = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${url}/dashboard`, json: "true" }),
  });
  keep(signedIn);
  if (![...jar.keys()].some((name) => name.endsWith("next-auth.session-token"))) {
    throw new Error(`dashboard sign-in failed (${signedIn.status}): no session cookie`);
  }
  const check = await fetch(`${url}/dashboard`, { redirect: "manual", headers: { cookie: cookie() } });
  if (check.status !== 200) throw new Error(`dashboard answered ${check.status} to the signed-in session`);
  return cookie();
}
