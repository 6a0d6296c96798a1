import { POST as issueKey } from "@/app/api/user/api-keys/route";
import { POST as register } from "@/app/api/user/register/route";
import { POST as issueToken } from "@/app/api/user/token/route";
import { bearer, call } from "./http";

let counter = 0;

/** Registers a fresh user over the real handlers and returns its bearer headers. */
export async function signUp(email = `merchant${++counter}-${Date.now()}@example.com`, password = "correct horse battery") {
  const registered = await call(register, { method: "POST", body: { email, password } });
  if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  const token = await call(issueToken, { method: "POST", body: { email, password } });
  return { email, password, userId: registered.body.data.userId as number, auth: bearer(token.body.data.token) };
}

export async function newApiKey(auth: Record<string, string>, name = "test"): Promise<{ id: number; key: string }> {
  const created = await call(issueKey, { method: "POST", headers: auth, body: { name } });
  if (created.status !== 201) throw new Error(`api key failed: ${JSON.stringify(created.body)}`);
  return { id: created.body.data.id, key: created.body.data.key };
}
