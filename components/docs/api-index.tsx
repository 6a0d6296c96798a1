import type { IndexedGroup } from "@/lib/web/openapi/operation-index";
import { OperationEntry } from "./operation-entry";
import { DOCS_WORDS } from "./words";

/**
 * The API reference as plain server-rendered HTML: the operations grouped by resource, each with
 * its method, path and summary (its description a click away). It shows with the page's first
 * bytes; the full interactive reference (~3 MB) loads only on demand (full-reference.tsx).
 */
export function ApiIndex({ groups }: { groups: IndexedGroup[] }) {
  return (
    <>
      <nav aria-label={DOCS_WORDS.resources} className="mt-6 flex flex-wrap gap-2">
        {groups.map((group) => (
          <a
            key={group.slug}
            href={`#${group.slug}`}
            className="rounded-full border bg-card px-3 py-1 text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
          >
            {group.tag}
          </a>
        ))}
      </nav>
      {groups.map((group) => (
        <section key={group.slug} id={group.slug} aria-labelledby={`${group.slug}-heading`} className="mt-10 scroll-mt-20">
          <h2 id={`${group.slug}-heading`} className="text-xl font-semibold tracking-tight">
            {group.tag}
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">{group.description}</p>
          <ul className="mt-4 flex flex-col gap-2">
            {group.operations.map((operation) => (
              <OperationEntry key={operation.id} operation={operation} />
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
