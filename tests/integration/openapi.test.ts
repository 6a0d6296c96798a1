import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/openapi.json/route";
import { createPaymentSchema } from "@/lib/payments/schemas";

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const response = GET();
    expect(response.status).toBe(200);
    const doc = await response.json();
    expect(doc.openapi).toBe("3.1.0");
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
  });

  it("describes payment/create with the fields of the schema that validates it", async () => {
    const doc = await GET().json();
    const request = doc.components.schemas.CreatePaymentRequest;
    expect(Object.keys(request.properties).sort()).toEqual(Object.keys(createPaymentSchema.shape).sort());
    expect(request.required.sort()).toEqual(["amount", "tokenId"]);
    const create = doc.paths["/api/v1/payment/create"].post;
    expect(Object.keys(create.responses).sort()).toEqual(["201", "400", "401", "402", "403", "409", "429", "500"]);
    expect(create.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths["/api/v1/payment/history"].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      "limit",
      "orderId",
      "page",
      "status",
    ]);
    expect(doc.components.schemas.PaymentSession.required).toEqual(
      expect.arrayContaining([
        "sessionId",
        "depositAddress",
        "ephemeralAddress",
        "qrCode",
        "amount",
        "token",
        "expiresAt",
        "status",
        "checkoutUrl",
      ]),
    );
  });
});
