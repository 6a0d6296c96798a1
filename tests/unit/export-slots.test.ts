import { afterEach, describe, expect, it } from "vitest";
import { EXPORTS_PER_INSTANCE, exportResponse, releasedAtEnd, runningExports, takeExportSlot } from "@/lib/web/http/export-slots";

const bytes = (text: string) => new TextEncoder().encode(text);
function streamOf(parts: string[], failAfter?: number): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (failAfter !== undefined && i === failAfter) return controller.error(new Error("the database went away"));
      if (i < parts.length) controller.enqueue(bytes(parts[i++]!));
      else controller.close();
    },
  });
}
const held: (() => void)[] = [];
afterEach(() => {
  for (const release of held.splice(0)) release();
  expect(runningExports()).toBe(0);
});

describe("export slots: one export per merchant, four per instance", () => {
  it("refuses a merchant's second export while the first runs, and another merchant's fifth in all", () => {
    const first = takeExportSlot(1);
    if (!("release" in first)) throw new Error("the first export was refused");
    held.push(first.release);
    expect(takeExportSlot(1)).toEqual({ refused: "user" });
    for (let user = 2; user <= EXPORTS_PER_INSTANCE; user++) {
      const slot = takeExportSlot(user);
      if (!("release" in slot)) throw new Error(`user ${user} was refused`);
      held.push(slot.release);
    }
    expect(takeExportSlot(99)).toEqual({ refused: "instance" });
    expect(runningExports()).toBe(EXPORTS_PER_INSTANCE);
    first.release();
    first.release(); // a second release gives back nothing more
    expect(runningExports()).toBe(EXPORTS_PER_INSTANCE - 1);
    expect(runningExports(1)).toBe(0);
  });

  it("gives the slot back when the stream ends, fails or its reader goes away", async () => {
    for (const end of ["done", "error", "cancel"] as const) {
      const slot = takeExportSlot(7);
      if (!("release" in slot)) throw new Error("refused");
      const stream = releasedAtEnd(streamOf(["a,b\n", "1,2\n"], end === "error" ? 1 : undefined), slot.release);
      const reader = stream.getReader();
      expect(runningExports(7)).toBe(1);
      if (end === "done") {
        let text = "";
        for (let r = await reader.read(); !r.done; r = await reader.read()) text += new TextDecoder().decode(r.value);
        expect(text).toBe("a,b\n1,2\n");
      } else if (end === "error") {
        await reader.read();
        await expect(reader.read()).rejects.toThrow("the database went away");
      } else {
        await reader.read();
        await reader.cancel();
      }
      expect(runningExports(7)).toBe(0);
    }
  });
});

describe("exportResponse", () => {
  it("streams the CSV while a slot is free, and answers 429 with what to do while the merchant's export runs", async () => {
    const res = await exportResponse(3, "bsc-pay-payments", async () => streamOf(["x\n"]));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const again = await exportResponse(3, "bsc-pay-payments", async () => streamOf(["x\n"]));
    expect(again.status).toBe(429);
    expect(again.headers.get("retry-after")).toBe("5");
    expect(await again.text()).toMatch(/another export of yours is still running/);
    expect(await res.text()).toBe("x\n");
    expect(runningExports(3)).toBe(0);
    expect((await exportResponse(3, "bsc-pay-payments", async () => streamOf([]))).status).toBe(200);
  });

  it("gives the slot back when opening the export fails", async () => {
    await expect(
      exportResponse(4, "bsc-pay-gas", async () => {
        throw new Error("no database");
      }),
    ).rejects.toThrow("no database");
    expect(runningExports(4)).toBe(0);
  });
});
