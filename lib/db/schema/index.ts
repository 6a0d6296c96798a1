/**
 * The whole database schema: the one entry drizzle-kit reads (drizzle.config.ts), gathering each
 * owner's entry point — engine/, merchants/, payments/ — and the service-wide tables beside them
 * (README.md says who owns which). The engine imports only its own entry points
 * (tests/unit/layering.test.ts); the layers above import tables and row types from here.
 */
export * from "./abuse-counters";
export * from "./app-state";
export * from "./engine";
export * from "./merchants";
export * from "./payments";
