import { describe, expect, it } from "vitest";
import { citationProblems, citationReport } from "../../scripts/citations";

/** One citation form (`npm run lint:citations`): the design record is cited as docs/design.md §n. */
describe("citations", () => {
  it("every source comment cites docs/design.md §n, no other form", () => {
    expect(citationReport()).toEqual([]);
  });

  it("accepts the one form and a docs page", () => {
    expect(citationProblems("// the lock order (docs/design.md §17)\n/** see docs/fiat.md */")).toEqual([]);
  });

  it.each([
    ["a DESIGN.md that is not there", "// the rule (DESIGN.md §26)"],
    ["the upper-case short form", "/* as DESIGN §5 says */"],
    ["design.md without its folder", "// design.md §23"],
    ["an issue number", "// refused since issue 46"],
    ["an issue with a hash", 'it("keeps the order (issue #12)")'],
    ["a README section", '// README "Pricing in fiat"'],
  ])("would catch %s", (_, line) => {
    expect(citationProblems(line)).toHaveLength(1);
  });
});
