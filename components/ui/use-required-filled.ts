"use client";

import { type FormEvent, useCallback, useState } from "react";

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/**
 * Chrome fills a saved password at load but hides its value from scripts until the user touches
 * the page; :autofill shows at once. Without it, a sign-in form filled by the browser would look
 * empty and keep its button off.
 */
function autofilled(control: Control): boolean {
  for (const selector of [":autofill", ":-webkit-autofill"]) {
    try {
      if (control.matches(selector)) return true;
    } catch {
      // a browser without this pseudo-class: try the next spelling
    }
  }
  return false;
}

/** Every enabled `required` control of the form has a value (spaces alone do not count). */
function requiredFilled(form: HTMLFormElement): boolean {
  return [...form.querySelectorAll<Control>("[required]")]
    .filter((control) => !control.disabled)
    .every((control) => control.value.trim() !== "" || autofilled(control));
}

/**
 * The dashboard's rule for forms whose inputs are not React state: the submit button stays
 * disabled until every required field has a value. Spread `formProps` on the <form>; `filled`
 * says whether to enable the button. It looks again when a required field appears (a second
 * step's code field), and when the browser autofills one (the `autofill-start` animation that
 * globals.css gives autofilled inputs, the way MUI detects it).
 */
export function useRequiredFilled() {
  const [filled, setFilled] = useState(false);
  const ref = useCallback((form: HTMLFormElement | null) => {
    if (!form) return;
    const check = () => setFilled(requiredFilled(form));
    check();
    const observer = new MutationObserver(check);
    observer.observe(form, { childList: true, subtree: true, attributes: true, attributeFilter: ["required", "disabled"] });
    form.addEventListener("animationstart", check);
    return () => {
      observer.disconnect();
      form.removeEventListener("animationstart", check);
    };
  }, []);
  const onInput = useCallback((event: FormEvent<HTMLFormElement>) => setFilled(requiredFilled(event.currentTarget)), []);
  // "reset" fires before the fields are cleared: look once they are.
  const onReset = useCallback((event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    setTimeout(() => setFilled(requiredFilled(form)), 0);
  }, []);
  return { filled, formProps: { ref, onInput, onReset } };
}
