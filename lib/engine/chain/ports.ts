/**
 * A port of the engine: what it asks of the records above it (the payments, the merchants) without
 * importing them or reading their tables (tests/unit/layering.test.ts, "tables owned by their
 * layer"). The implementation is registered once per process by the layer that owns the records —
 * wireEngine() in lib/domain/payments/engine-ports.ts, called by the job steps, the server's
 * start-up and the admin CLI — and kept on globalThis, so a module bundled twice (Next.js loads
 * instrumentation and route handlers apart) still finds it. Money moves through these answers: an
 * engine that was never wired refuses to guess and throws.
 */

export interface EnginePort<T> {
  set(implementation: T): void;
  get(): T;
}

export function enginePort<T>(name: string): EnginePort<T> {
  const key = Symbol.for(`bsc-pay.engine-port.${name}`);
  const holder = globalThis as { [key]?: T };
  return {
    set: (implementation) => {
      holder[key] = implementation;
    },
    get: () => {
      const implementation = holder[key];
      if (implementation === undefined)
        throw new Error(`the engine's ${name} port is not wired: call wireEngine() (lib/domain/payments/engine-ports.ts) first`);
      return implementation;
    },
  };
}
