"use client";

import { type FormEvent, useCallback, useState } from "react";

/** Every enabled `required` control of the form has a value (spaces alone do not count). */
function requiredFilled(form: HTMLFormElement): boolean {
  return [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>("[required]")]
    .filter((control) => !control.disabled)
    .every((control) => control.value.trim() !== "");
}

/**
 * The dashboard's rule for forms whose inputs are not React state: the submit button stays
 * disabled until every required field has a value. Spread `formProps` on the <form>; `filled`
 * says whether to enable the button.
 */
export function useRequiredFilled() {
  const [filled, setFilled] = useState(false);
  const ref = useCallback((form: HTMLFormElement | null) => {
    if (form) setFilled(requiredFilled(form));
  }, []);
  const onInput = useCallback((event: FormEvent<HTMLFormElement>) => setFilled(requiredFilled(event.currentTarget)), []);
  // "reset" fires before the fields are cleared: look once they are.
  const onReset = useCallback((event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    setTimeout(() => setFilled(requiredFilled(form)), 0);
  }, []);
  return { filled, formProps: { ref, onInput, onReset } };
}
