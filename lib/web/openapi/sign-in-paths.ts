/** Sign-up, sign-in and the user's own security (/api/user: password, two-factor, sign out everywhere) in the OpenAPI document. */

import { z } from "zod";
import { signOutEverywhereSchema } from "../../accounts/api-keys/sign-out-everywhere";
import { changePasswordSchema } from "../../accounts/users/change-password";
import { credentialsSchema } from "../../accounts/users/create-user";
import type { RegisteredUser } from "../../accounts/users/register-user";
import { confirmEnrolmentSchema } from "../../accounts/users/two-factor";
import { EX } from "./examples";
import { answer, described, errors, json, member, memberErrors, open, user } from "./shared";
import { tagged } from "./tags";
import { bearer } from "./user-examples";

export const signInPaths = {
  "/api/user/register": {
    post: {
      ...open,
      ...tagged("Sign-in"),
      operationId: "registerUser",
      summary: "Create an account",
      requestBody: json(credentialsSchema, { account: { email: "owner@shop.example.com", password: "correct horse battery staple" } }),
      responses: {
        "201": answer("Created: {userId, email, createdAt}", described("{userId, email, createdAt}"), {
          userId: 7,
          email: "owner@shop.example.com",
          createdAt: EX.createdAt,
        } satisfies RegisteredUser),
        ...errors(["VALIDATION_ERROR", "REGISTRATION_CLOSED", "RATE_LIMITED"], {
          VALIDATION_ERROR: { message: "an account with this email already exists", reason: "email-taken" },
        }),
      },
    },
  },
  "/api/user/token": {
    post: {
      ...open,
      ...tagged("Sign-in"),
      operationId: "createBearerToken",
      summary: "Get a bearer token",
      description:
        "With two-factor sign-in on, `code` (the authenticator app's current code, or a recovery code) is required after the right password.",
      requestBody: json(credentialsSchema.extend({ code: z.string().optional() }), {
        signIn: { email: "owner@shop.example.com", password: "correct horse battery staple" },
        twoFactor: { email: "owner@shop.example.com", password: "correct horse battery staple", code: "492031" },
      }),
      responses: {
        "200": answer("{token, expiresAt}", described("{token, expiresAt}"), bearer),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED", "RATE_LIMITED"], {
          UNAUTHORIZED: { message: "invalid email or password", reason: "credentials-invalid" },
        }),
      },
    },
  },
  "/api/user/password": {
    post: {
      ...user,
      ...tagged("Sign-in"),
      operationId: "changePassword",
      summary: "Change the password",
      description: "Every earlier token and session ends; the answer carries a fresh token.",
      requestBody: json(changePasswordSchema, {
        change: { currentPassword: "correct horse battery staple", newPassword: "tr0mbone-gazelle-ledger" },
      }),
      responses: {
        "200": answer("{token, expiresAt}", described("{token, expiresAt}"), bearer),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: {
            message: "the current password is wrong",
            reason: "password-wrong",
            details: [{ path: "currentPassword", message: "the current password is wrong" }],
          },
        }),
      },
    },
  },
  "/api/user/two-factor": {
    post: {
      ...user,
      ...tagged("Sign-in"),
      operationId: "startTwoFactor",
      summary: "Start two-factor set-up",
      description:
        "Two-factor set-up, step 1: a fresh seed to scan ({secret, uri, qrCode}); nothing changes for sign-in yet. About the signed-in user, in no account: a member an account holds to enrolling (membersNeedTwoFactor) reaches it. Already on → 400 two-factor-already-on.",
      responses: {
        "200": answer("{secret, uri, qrCode}", described("{secret, uri, qrCode}"), {
          secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
          uri: "otpauth://totp/BSC%20Pay%3Aowner%40shop.example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=BSC%20Pay&algorithm=SHA1&digits=6&period=30",
          qrCode: "data:image/png;base64,iVBORw0KGgo…",
        }),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: {
            message: "two-factor authentication is already on; turn it off first to use another app",
            reason: "two-factor-already-on",
          },
        }),
      },
    },
  },
  "/api/user/two-factor/confirm": {
    post: {
      ...user,
      ...tagged("Sign-in"),
      operationId: "confirmTwoFactor",
      summary: "Confirm two-factor set-up",
      description:
        "Two-factor set-up, step 2: a code of the seed and the current password turn it on; every earlier token and session ends. The answer holds the 10 recovery codes (shown this once) and a fresh bearer token: the caller's token ended with the others.",
      requestBody: json(confirmEnrolmentSchema, { confirm: { code: "492031", currentPassword: "correct horse battery staple" } }),
      responses: {
        "200": answer("{recoveryCodes, token, expiresAt}", described("{recoveryCodes, token, expiresAt}"), {
          recoveryCodes: ["k3d9q-x7m2p", "a8w4z-r6t1n"],
          ...bearer,
        }),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: {
            message: "the code does not match; check the time on your phone and enter the current code",
            reason: "two-factor-code-wrong",
            details: [{ path: "code", message: "the code does not match; check the time on your phone and enter the current code" }],
          },
        }),
      },
    },
  },
  "/api/user/sign-out-everywhere": {
    post: {
      ...member("read"),
      ...tagged("Sign-in"),
      operationId: "signOutEverywhere",
      summary: "Sign out everywhere",
      description:
        "Ends every bearer token and dashboard session of yours; with revokeApiKeys: true, revokes every API key of the account too. revokeApiKeys: true needs the developer permission in the account acted in (X-Account-Id); without it the answer is 403 role-forbids and nothing ends.",
      requestBody: json(signOutEverywhereSchema, { withKeys: { revokeApiKeys: true } }),
      responses: {
        "200": answer("{signedOut: true, apiKeysRevoked}", described("{signedOut: true, apiKeysRevoked}"), {
          signedOut: true,
          apiKeysRevoked: 2,
        }),
        ...memberErrors("developer", ["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: { message: "revokeApiKeys: revokeApiKeys must be true or false", reason: "invalid-request" },
        }),
      },
    },
  },
};
