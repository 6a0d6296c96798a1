/**
 * `npm run openapi:export [-- <path>]`: write the OpenAPI document GET /api/v1/openapi.json serves
 * (the same builder) as pretty JSON to <path> (default sdk/openapi.json), for the linter and the SDK's
 * type generator. Building it reads no configuration and opens no database.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { openApiDocument } from "@/lib/web/openapi/document";

const target = resolve(process.argv[2] ?? "sdk/openapi.json");
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
