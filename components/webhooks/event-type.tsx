import { Fragment } from "react";

/** "payment.cancelled", allowed to break after its dot: a phone's table keeps its last column in view. */
export function EventType({ type }: { type: string }) {
  const parts = type.split(".");
  return (
    <span className="font-mono text-xs font-medium">
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, never reordered
        <Fragment key={i}>
          {i > 0 && (
            <>
              .<wbr />
            </>
          )}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
