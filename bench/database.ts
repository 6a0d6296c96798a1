import postgres from "postgres";

/**
 * A fresh PostgreSQL database for one benchmark run (BENCH_DATABASE_URL names the server); `drop`
 * removes it, unless BENCH_KEEP_DATABASE=1 keeps it for a look afterwards (its name is printed).
 */
export async function createBenchDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const name = `bscpay_${prefix}_${Date.now().toString(36)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      if (process.env.BENCH_KEEP_DATABASE === "1") {
        console.log(`kept database ${name} (BENCH_KEEP_DATABASE=1)`);
        return admin.end();
      }
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
