import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/** The current authenticator code a money-moving form asks for while two-factor sign-in is on. */
export function TwoFactorCodeField({
  value,
  onChange,
  error,
  required,
}: {
  value: string;
  onChange: (code: string) => void;
  error?: string;
  required?: boolean;
}) {
  return (
    <Field label="Two-factor code" error={error} hint="The 6-digit code your authenticator app shows now.">
      {(control) => (
        <Input
          {...control}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          required={required}
        />
      )}
    </Field>
  );
}
