/**
 * Real instances of the service (`next start`, the production build) for tests and benchmarks that
 * run several of them on one PostgreSQL database and one anvil, as a load balancer would see them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { freePort } from "@/lib/engine/dev/anvil";

export interface Instance {
  name: string;
  url: string;
  process: ChildProcess;
  /** SIGKILL: no shutdown, its connections drop as a crashed machine's would. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The production build the instances run. REUSE_BUILD=1 (set by .ci/run after its one build)
 * reuses `.next`; otherwise it builds, so a test never runs yesterday's code.
 */
export async function ensureBuild(): Promise<void> {
  if (process.env.REUSE_BUILD === "1" && existsSync(".next/BUILD_ID")) return;
  // Asynchronously: a synchronous child would freeze this process's event loop (and its test servers).
  await run("npm", ["run", "build"], { NEXT_TELEMETRY_DISABLED: "1" });
}

export async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port)], {
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXTAUTH_URL: url,
      LOG_LEVEL: "warn",
      HEALTH_CACHE_MS: "0",
      LOCAL_CHAIN: "off",
      ...env,
    },
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const instance: Instance = {
    name,
    url,
    process: child,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited (${child.exitCode}): ${stderr.trim()}`);
    const answered = await fetch(`${url}/api/health`).then(
      (r) => r.status === 200 || r.status === 503,
      () => false,
    );
    if (answered) return instance;
    if (Date.now() > deadline) {
      await instance.kill();
      throw new Error(`instance ${name} did not answer /api/health in 120 s: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Whether the instance leads the embedded jobs now, as its /api/health says. */
export async function leads(instance: Instance): Promise<boolean> {
  const health = await fetch(`${instance.url}/api/health`).then(
    (r) => r.json() as Promise<{ jobs?: { leader?: boolean } }>,
    () => null,
  );
  return health?.jobs?.leader === true;
}

function run(command: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "ignore", env: { ...process.env, ...env } });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`))));
  });
}
