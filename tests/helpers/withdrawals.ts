import { isRecordedWithdrawal, type RecordedWithdrawal, type Withdrawal } from "@/lib/db/schema";

/** A withdrawal row that must have its transaction recorded (every one but those awaiting approval or rejected). */
export function recorded(row: Withdrawal | undefined): RecordedWithdrawal {
  if (!row || !isRecordedWithdrawal(row)) throw new Error(`withdrawal ${row?.id ?? "(none)"} has no recorded transaction`);
  return row;
}
