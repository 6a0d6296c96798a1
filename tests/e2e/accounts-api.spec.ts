import { expect, test } from "@playwright/test";
import { DEMO_TOKEN_ADDRESS } from "../../lib/engine/dev/demo-token";

/** The README's curl set-up, over real HTTP against the production server. */
test("register → token → plan → token → domain → API key", async ({ request }) => {
  const email = `e2e-${Date.now()}@example.com`;
  const password = "correct horse battery";

  const registered = await request.post("/api/user/register", { data: { email, password } });
  expect(registered.status()).toBe(201);

  const issued = await request.post("/api/user/token", { data: { email, password } });
  expect(issued.status()).toBe(200);
  const { token } = (await issued.json()).data;
  const headers = { authorization: `Bearer ${token}` };

  const pkg = await request.post("/api/user/package", { headers, data: { plan: "starter" } });
  expect((await pkg.json()).data.plan.id).toBe("starter");

  const tokenRes = await request.post("/api/user/tokens", { headers, data: { contractAddress: DEMO_TOKEN_ADDRESS, network: "local" } });
  expect(tokenRes.status()).toBe(201);
  expect((await tokenRes.json()).data).toMatchObject({
    symbol: "DUSD",
    decimals: 18,
    contractAddress: DEMO_TOKEN_ADDRESS,
    network: "local",
  });

  const domain = await request.post("/api/user/domains", { headers, data: { domain: "https://shop.example.com" } });
  expect(domain.status()).toBe(201);
  expect((await domain.json()).data.withdrawalAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);

  const key = await request.post("/api/user/api-keys", { headers, data: { name: "shop" } });
  expect(key.status()).toBe(201);
  expect((await key.json()).data.key).toMatch(/^bscp_live_/);

  const unauthorized = await request.get("/api/user/tokens");
  expect(unauthorized.status()).toBe(401);
  expect(await unauthorized.json()).toMatchObject({ success: false, error: { code: "UNAUTHORIZED" } });
});

test("every unknown /api path answers the JSON envelope, never an HTML page", async ({ request }) => {
  for (const path of ["/api/nope", "/api/v1/payment/abc/teleport", "/api/user/everything"]) {
    const res = await request.get(path);
    expect(res.status()).toBe(404);
    expect(res.headers()["content-type"]).toContain("application/json");
    expect(await res.json()).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
  }
  const post = await request.post("/api/v2/payment/create", { data: {} });
  expect(post.status()).toBe(404);
  expect((await post.json()).error.code).toBe("NOT_FOUND");
});

test("a token outside the catalogue is refused with a message saying the operator can allow it", async ({ request }) => {
  const email = `e2e-cat-${Date.now()}@example.com`;
  await request.post("/api/user/register", { data: { email, password: "correct horse battery" } });
  const { token } = (await (await request.post("/api/user/token", { data: { email, password: "correct horse battery" } })).json()).data;
  const res = await request.post("/api/user/tokens", {
    headers: { authorization: `Bearer ${token}` },
    data: { contractAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3", network: "local" },
  });
  expect(res.status()).toBe(400);
  expect((await res.json()).error.message).toContain("tokens allow local");
});
