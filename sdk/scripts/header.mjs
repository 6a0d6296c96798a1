import { readFileSync, writeFileSync } from "node:fs";

const f = process.argv[2];
writeFileSync(
  f,
  "// Generated from openapi.json by `npm run generate` (openapi-typescript). Do not edit: CI regenerates it and fails on a diff.\n" +
    readFileSync(f, "utf8"),
);
