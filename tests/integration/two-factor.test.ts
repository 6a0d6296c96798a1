import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { type Address, parseEther, parseUnits } from "viem";
import { describe, expect, it, vi } from "vitest";
import { POST as createKey, GET as listKeys } from "@/app/api/user/api-keys/route";
import { POST as issueToken } from "@/app/api/user/token/route";
import { GET as listTokens } from "@/app/api/user/tokens/route";
import { TWO_FACTOR_REQUIRED, TWO_FACTOR_WRONG } from "@/lib/accounts/auth/sign-in";
import { asOwner } from "@/lib/accounts/members/principal";
import { changePassword } from "@/lib/accounts/users/change-password";
import { recoveryCodeMatches } from "@/lib/accounts/users/recovery-codes";
import { TOTP_STEP_SECONDS, totpCode, totpStep } from "@/lib/accounts/users/totp";
import { confirmEnrolment, disableTwoFactor, startEnrolment, twoFactorStatus, verifySecondFactor } from "@/lib/accounts/users/two-factor";
import { abuseCounters, recoveryCodes, type User, users, withdrawals } from "@/lib/db/schema";
import { sendWithdrawalFromDashboard } from "@/lib/domain/withdrawals/send";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo } from "../helpers/engine";
import { bearer, call } from "../helpers/http";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

/** Two-factor sign-in: enrol, sign in, withdraw and create keys with a code; recovery codes; wrong codes. */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const PASSWORD = "correct horse battery";
const RECIPIENT = "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097" as Address;
const config = () => useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });

const userOf = async (id: number): Promise<User> => (await db().select().from(users).where(eq(users.id, id)))[0]!;
const token = (m: Merchant, code?: string) =>
  call(issueToken, { method: "POST", body: { email: m.email, password: PASSWORD, ...(code === undefined ? {} : { code }) } });

/** Waits for the next TOTP step when less than 10 s of the current one are left. */
async function clearOfStepEnd(): Promise<void> {
  const left = TOTP_STEP_SECONDS * 1000 - (Date.now() % (TOTP_STEP_SECONDS * 1000));
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** A merchant with two-factor on, enrolled with the previous step's code: the current and next steps' codes are unused. */
async function enrolled(): Promise<{ merchant: Merchant; secret: string; codes: string[]; usd: Address }> {
  config();
  await resetRateLimits();
  const usd = await deployTestToken(chain().url, { symbol: "TFA" });
  const merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
  const { secret } = await startEnrolment(db(), await userOf(merchant.userId));
  // The previous step's code is accepted only while the step is current: never start it just before a step ends
  // (the password check between drawing the code and matching it took a loaded machine across one).
  await clearOfStepEnd();
  const codes = await confirmEnrolment(db(), await userOf(merchant.userId), totpCode(secret, totpStep() - 1), PASSWORD);
  return { merchant, secret, codes, usd };
}

describe("two-factor sign-in", () => {
  it("turns on only with a code of the seed shown, stores the seed sealed and the recovery codes hashed", async () => {
    config();
    const usd = await deployTestToken(chain().url, { symbol: "TFB" });
    const m = await setUpMerchant({ contractAddress: usd, network: "bsc" });
    const { secret, uri, qrCode } = await startEnrolment(db(), await userOf(m.userId));
    expect(uri).toContain(`secret=${secret}`);
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    expect((await token(m)).status).toBe(200); // not on yet: the password alone still signs in
    await expect(confirmEnrolment(db(), await userOf(m.userId), "000000", PASSWORD)).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ path: "code" }],
    });
    expect((await userOf(m.userId)).totpEnabledAt).toBeNull();

    const codes = await confirmEnrolment(db(), await userOf(m.userId), totpCode(secret, totpStep()), PASSWORD);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const row = await userOf(m.userId);
    expect(row.totpEnabledAt).not.toBeNull();
    expect(row.totpSecret).not.toContain(secret);
    expect(row.totpPendingSecret).toBeNull();
    const stored = await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, m.userId));
    // Each code under its own salt: scrypt, ten different salts, and each hash matches its code only.
    expect(stored.every((r) => r.codeHash.startsWith("scrypt$"))).toBe(true);
    expect(new Set(stored.map((r) => r.codeHash.split("$")[4])).size).toBe(10);
    for (const code of codes) {
      const matching = await Promise.all(stored.map((r) => recoveryCodeMatches(code, r.codeHash)));
      expect(matching.filter(Boolean)).toHaveLength(1);
    }
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));
    expect(JSON.stringify(stored)).not.toContain(codes[0]!);
    expect(await twoFactorStatus(db(), row)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
  });

  it("asks the bearer-token sign-in for a code after the right password; a code works once; a recovery code once", async () => {
    const { merchant, secret, codes } = await enrolled();
    const missing = await token(merchant);
    expect(missing.status).toBe(401);
    expect(missing.body.error.message).toBe(TWO_FACTOR_REQUIRED);
    // A wrong password still says only that.
    const wrongPassword = await call(issueToken, { method: "POST", body: { email: merchant.email, password: "not the password" } });
    expect(wrongPassword.body.error.message).toBe("invalid email or password");
    expect((await token(merchant, "123456")).body.error.message).toBe(TWO_FACTOR_WRONG);

    const code = totpCode(secret, totpStep());
    const signedIn = await token(merchant, code);
    expect(signedIn.status).toBe(200);
    expect((await call(listTokens, { headers: bearer(signedIn.body.data.token) })).status).toBe(200);
    expect((await token(merchant, code)).body.error.message).toBe(TWO_FACTOR_WRONG); // replayed

    expect((await token(merchant, codes[3]!.toUpperCase())).status).toBe(200);
    expect((await token(merchant, codes[3]!)).status).toBe(401); // used
    expect(await twoFactorStatus(db(), await userOf(merchant.userId))).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it("keeps a recovery code stored before salting (a bare SHA-256) working, once; a salted code passes once under concurrent use", async () => {
    const { merchant, codes } = await enrolled();
    const legacy = "abcde-fghij";
    await db()
      .insert(recoveryCodes)
      .values({ userId: merchant.userId, codeHash: createHash("sha256").update("abcdefghij").digest("hex") });
    expect((await token(merchant, "ABCDE-FGHIJ")).status).toBe(200);
    expect((await token(merchant, legacy)).status).toBe(401); // used
    const both = await Promise.all([token(merchant, codes[5]!), token(merchant, codes[5]!)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(await twoFactorStatus(db(), await userOf(merchant.userId))).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it("turns on only with the current password: a stolen session alone cannot, and its guesses count as failed sign-ins", async () => {
    config();
    await resetRateLimits();
    const usd = await deployTestToken(chain().url, { symbol: "TFP" });
    const m = await setUpMerchant({ contractAddress: usd, network: "bsc" });
    const { secret } = await startEnrolment(db(), await userOf(m.userId));
    const before = await userOf(m.userId);
    for (const password of ["", "wrong password guess"]) {
      await expect(confirmEnrolment(db(), await userOf(m.userId), totpCode(secret, totpStep()), password)).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        details: [{ path: "currentPassword" }],
      });
    }
    const after = await userOf(m.userId);
    expect(after).toMatchObject({ totpEnabledAt: null, totpSecret: null, tokenVersion: before.tokenVersion });
    expect(await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, m.userId))).toEqual([]);
    expect((await call(listTokens, { headers: m.auth })).status).toBe(200); // the owner's session lives on
    // The same counter as the sign-in form: 10 wrong passwords and even the right one waits.
    for (let i = 2; i < 10; i++) {
      await expect(confirmEnrolment(db(), await userOf(m.userId), totpCode(secret, totpStep()), `guess ${i}`)).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
      });
    }
    await expect(confirmEnrolment(db(), await userOf(m.userId), totpCode(secret, totpStep()), PASSWORD)).rejects.toMatchObject({
      code: "RATE_LIMITED",
    });
    expect((await token(m)).status).toBe(429);
    expect((await userOf(m.userId)).totpEnabledAt).toBeNull();
    await resetRateLimits();
  });

  it("counts wrong codes as failed sign-ins: 10 in a row and even the right code waits", async () => {
    const { merchant, secret } = await enrolled();
    for (let i = 0; i < 10; i++) expect((await token(merchant, String(100000 + i))).status).toBe(401);
    const blocked = await token(merchant, totpCode(secret, totpStep() + 1));
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe("RATE_LIMITED");
    await resetRateLimits();
  });

  it("counts a guess before checking it: 50 concurrent wrong codes from a stolen session verify at most 10, then even the right code waits out the window", async () => {
    const { merchant, secret } = await enrolled();
    const auth = bearer((await token(merchant, totpCode(secret, totpStep()))).body.data.token);
    const withCode = (code: string, name = "guess") => call(createKey, { method: "POST", headers: auth, body: { name, code } });
    // A right code each time: the test forgets the step last used (each code works once).
    const rightCode = async () => {
      await db().update(users).set({ totpLastStep: null }).where(eq(users.id, merchant.userId));
      return totpCode(secret, totpStep());
    };
    // Under the limit a right code still works after wrong ones (and clears them).
    expect((await withCode("000001")).status).toBe(400);
    expect((await withCode(await rightCode(), "after one wrong")).status).toBe(201);

    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => withCode(String(200000 + i))));
    const checked = answers.filter((a) => a.status === 400);
    const limited = answers.filter((a) => a.status === 429);
    expect(checked.length).toBeLessThanOrEqual(10);
    expect(checked.length + limited.length).toBe(50);
    expect(limited.every((a) => a.body.error.code === "RATE_LIMITED" && Number(a.headers.get("retry-after")) > 0)).toBe(true);
    const right = await withCode(await rightCode(), "right but late");
    expect(right.status).toBe(429);
    // The sign-in of the account waits too, right password and code included.
    expect((await token(merchant, await rightCode())).status).toBe(429);
    // Once the window has passed, the right code works again.
    await db()
      .update(abuseCounters)
      .set({ windowEndsAt: new Date(Date.now() - 1000) })
      .where(eq(abuseCounters.key, `sign-in-failures:${merchant.email.toLowerCase()}`));
    expect((await withCode(await rightCode(), "after the window")).status).toBe(201);
    const keys = await call(listKeys, { headers: auth });
    expect(keys.body.data.map((k: { name: string }) => k.name).sort()).toEqual(["after one wrong", "after the window", "test"]);
  });

  it("a right current password on change password does not clear the two-factor guesses counted before it", async () => {
    const { merchant } = await enrolled();
    const guess = async (code: string) =>
      verifySecondFactor(db(), await userOf(merchant.userId), code, { allowRecoveryCode: false }).catch((e) => e.code);
    for (let i = 0; i < 9; i++) expect(await guess(String(300000 + i))).toBe("VALIDATION_ERROR");
    await changePassword(db(), merchant.userId, { currentPassword: PASSWORD, newPassword: "another long password" });
    // The password check was the 10th attempt; had it cleared the count, this guess would be checked.
    expect(await guess("300009")).toBe("RATE_LIMITED");
    await resetRateLimits();
  });

  it("asks for a current code to create an API key; a wrong code creates nothing", async () => {
    const { merchant, secret } = await enrolled();
    const auth = bearer((await token(merchant, totpCode(secret, totpStep()))).body.data.token);
    const noCode = await call(createKey, { method: "POST", headers: auth, body: { name: "needs a code" } });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "code" }] });
    expect((await call(createKey, { method: "POST", headers: auth, body: { name: "wrong", code: "000000" } })).status).toBe(400);
    for (const code of [123456, "9".repeat(40)]) {
      const malformed = await call(createKey, { method: "POST", headers: auth, body: { name: "malformed", code } });
      expect(malformed.body.error).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    const created = await call(createKey, {
      method: "POST",
      headers: auth,
      body: { name: "with a code", code: totpCode(secret, totpStep() + 1) },
    });
    expect(created.status).toBe(201);
    const keys = await call(listKeys, { headers: auth });
    expect(keys.body.data.map((k: { name: string }) => k.name).sort()).toEqual(["test", "with a code"]);
  });

  it("asks for a current code to send a withdrawal from the dashboard; without it or with a wrong one nothing is recorded", async () => {
    const { merchant, secret, usd } = await enrolled();
    await fundGasTank(chain().url);
    const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, wallet, parseUnits("10", 18)) });
    await chain().client.setBalance({ address: wallet, value: parseEther("1") });
    const input = { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: RECIPIENT, amount: "2" };
    const user = await userOf(merchant.userId);
    await expect(sendWithdrawalFromDashboard(db(), asOwner(user), input, crypto.randomUUID())).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ path: "code" }],
    });
    await expect(sendWithdrawalFromDashboard(db(), asOwner(user), input, crypto.randomUUID(), "999999")).rejects.toMatchObject({
      details: [{ path: "code" }],
    });
    expect(await db().select().from(withdrawals).where(eq(withdrawals.userId, merchant.userId))).toEqual([]);
    const requestId = crypto.randomUUID();
    const sent = await sendWithdrawalFromDashboard(db(), asOwner(user), input, requestId, totpCode(secret, totpStep()));
    expect(sent.view.status).toBe("submitted");
    // The same form again (a double click) answers with that withdrawal: its code is spent, nothing is sent twice.
    const again = await sendWithdrawalFromDashboard(db(), asOwner(await userOf(merchant.userId)), input, requestId);
    expect(again).toMatchObject({ replayed: true, view: { withdrawalId: sent.view.withdrawalId } });
    expect(await db().select().from(withdrawals).where(eq(withdrawals.userId, merchant.userId))).toHaveLength(1);
  });

  it("still lets a recovery code in when the seed cannot be read any more (NEXTAUTH_SECRET changed)", async () => {
    const { merchant, secret, codes } = await enrolled();
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "another-secret-after-rotation-0123456789", CONFIRMATIONS: "1" });
    expect((await token(merchant, totpCode(secret, totpStep()))).status).toBe(401);
    expect((await token(merchant, codes[1]!)).status).toBe(200);
    config();
  });

  it("turns off with a code or a recovery code; then the password alone signs in again", async () => {
    const { merchant, codes } = await enrolled();
    await expect(disableTwoFactor(db(), await userOf(merchant.userId), "not-a-code")).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await token(merchant)).status).toBe(401);
    await disableTwoFactor(db(), await userOf(merchant.userId), codes[0]!);
    expect((await token(merchant)).status).toBe(200);
    expect(await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, merchant.userId))).toEqual([]);
    expect(await twoFactorStatus(db(), await userOf(merchant.userId))).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
  });
});
