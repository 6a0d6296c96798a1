/** `npm run lint:citations`: fails when a source comment cites the design record in another form than `docs/design.md §n`. */

import { citationReport } from "./citations";

const problems = citationReport();
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`${problems.length} citation(s) in another form than docs/design.md §n`);
  process.exit(1);
}
