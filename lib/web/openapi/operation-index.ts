/**
 * The light index of the API reference (/docs): every operation of the OpenAPI document grouped by
 * its resource (tags.ts, in that order) with its method, path, summary and description — what the
 * page server-renders at once, before (and without) the full interactive reference.
 */

import { API_TAGS, type ApiTag } from "./tags";

export interface IndexedOperation {
  /** The operationId: unique, and the entry's anchor on the page. */
  id: string;
  method: string;
  /** The path, or for a webhook the event type sent to the domain's webhookUrl. */
  path: string;
  webhook: boolean;
  summary: string;
  description: string;
}

export interface IndexedGroup {
  tag: ApiTag;
  /** The group's anchor on the page ("payment-links"). */
  slug: string;
  description: string;
  operations: IndexedOperation[];
}

interface OperationLike {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
}
/** `paths` or `webhooks` of the document: path → method → operation. */
type PathsLike = object | undefined;

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export const tagSlug = (tag: string) =>
  tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function operationsOf(paths: PathsLike, webhook: boolean): (IndexedOperation & { tag: string | undefined })[] {
  return (Object.entries(paths ?? {}) as [string, Record<string, unknown> | undefined][]).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item?.[method] as OperationLike | undefined;
      if (!op) return [];
      return [
        {
          id: op.operationId ?? `${method}-${path}`,
          method: method.toUpperCase(),
          path,
          webhook,
          summary: op.summary ?? "",
          description: op.description ?? "",
          tag: op.tags?.[0],
        },
      ];
    }),
  );
}

/** The document's operations by resource, in the order of API_TAGS; an untagged one is left out (a test forbids them). */
export function operationIndex(doc: { paths?: PathsLike; webhooks?: PathsLike }): IndexedGroup[] {
  const all = [...operationsOf(doc.paths, false), ...operationsOf(doc.webhooks, true)];
  return API_TAGS.map(({ name, description }) => ({
    tag: name,
    slug: tagSlug(name),
    description,
    operations: all.filter((op) => op.tag === name).map(({ tag: _tag, ...op }) => op),
  })).filter((group) => group.operations.length > 0);
}
