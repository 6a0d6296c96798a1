/** One option of a radio group, as a bordered box with its label and a hint under it (the checked one is outlined). */
export function RadioChoice({
  name,
  value,
  checked,
  onChange,
  label,
  hint,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChange: () => void;
  label: string;
  hint: string;
}) {
  const id = `${name}-${value}`;
  return (
    <div className="flex items-start gap-2.5 rounded-md border p-3 has-[:checked]:border-primary has-[:checked]:bg-accent/40">
      <input
        type="radio"
        id={id}
        name={name}
        value={value}
        checked={checked}
        onChange={onChange}
        aria-describedby={`${id}-hint`}
        className="mt-0.5 size-4 accent-primary"
      />
      <div className="grid gap-0.5">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
    </div>
  );
}
