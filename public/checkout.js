/*
 * BSC Pay embedded checkout. On your shop's page:
 *   <script src="https://pay.example.com/checkout.js"></script>
 *
 *   BscPay.button("#pay", { createSession: async () => (await fetch("/my-shop/pay", { method: "POST" })).text(),
 *                           onOutcome: ({ sessionId, status }) => … });
 * or, with a session you already have:
 *   const { result, close } = BscPay.open(sessionId, { onCompleted, onClosed, onStatus });
 *   const { status } = await result;
 *
 * The checkout opens as a modal over your page. Its outcome reaches you only if your page's
 * origin is one of the domains you whitelisted in BSC Pay. `result` resolves once, when the modal
 * closes (the payer closes it, cancels, or you call close()), with the last status the checkout
 * reported (null if none reached you); it never rejects. docs/checkout.md ("Drop-in button").
 * No dependency, no build step: this file is served as it is.
 */
(() => {
  var script = document.currentScript;
  var base = script?.src ? new URL(script.src).origin : window.location.origin;

  function open(sessionId, options) {
    if (!/^[0-9a-f-]{36}$/i.test(String(sessionId))) throw new Error("BscPay.open: sessionId must be the payment's id");
    options = options || {};
    var last = null;
    var closed = false;
    var settle;
    var result = new Promise((resolve) => {
      settle = resolve;
    });
    // Focus goes back where it was (the shop's button) when the modal closes.
    var returnFocus = document.activeElement;
    var overlay = document.createElement("div");
    overlay.setAttribute("data-bscpay-overlay", "");
    overlay.setAttribute("role", "dialog");
    overlay.setAttribute("aria-modal", "true");
    overlay.setAttribute("aria-label", "BSC Pay checkout");
    overlay.style.cssText =
      "position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center;padding:16px";
    var frame = document.createElement("iframe");
    frame.src = `${base}/pay/${encodeURIComponent(sessionId)}?embed=1`;
    frame.title = "BSC Pay checkout";
    frame.allow = "clipboard-write";
    frame.style.cssText =
      "width:100%;max-width:440px;height:min(760px,100%);border:0;border-radius:16px;background:#fff;box-shadow:0 20px 60px rgba(0,0,0,.35)";
    overlay.appendChild(frame);

    // Idempotent: the checkout's close message, Escape, a click beside it and the caller's close()
    // may all happen; the outcome is settled and reported once.
    function close() {
      if (closed) return;
      closed = true;
      window.removeEventListener("message", onMessage);
      document.removeEventListener("keydown", onKey);
      if (overlay.parentNode) overlay.parentNode.removeChild(overlay);
      settle({ sessionId: sessionId, status: last });
      if (returnFocus && typeof returnFocus.focus === "function" && returnFocus !== document.body && document.contains(returnFocus)) {
        returnFocus.focus();
      }
      if (typeof options.onClosed === "function") options.onClosed(last);
    }
    function onMessage(event) {
      if (event.origin !== base || event.source !== frame.contentWindow) return;
      var data = event.data || {};
      if (data.sessionId !== sessionId) return;
      if (data.type === "bscpay:status") {
        last = data.status;
        if (data.status === "completed" && typeof options.onCompleted === "function") options.onCompleted(data);
        if (typeof options.onStatus === "function") options.onStatus(data);
      } else if (data.type === "bscpay:close") {
        close();
      }
    }
    function onKey(event) {
      if (event.key === "Escape") close();
    }
    overlay.addEventListener("click", (event) => {
      if (event.target === overlay) close();
    });
    window.addEventListener("message", onMessage);
    document.addEventListener("keydown", onKey);
    document.body.appendChild(overlay);
    frame.focus();
    return { close: close, result: result };
  }

  // The default look: BNB yellow with near-black text reads the same on a light and a dark page;
  // the focus ring is two rings (dark inside, white outside), visible on either.
  var CSS =
    ".bscpay-button{display:inline-flex;align-items:center;justify-content:center;gap:8px;min-height:44px;padding:10px 20px;" +
    "border:1px solid #c99a06;border-radius:10px;background:#f0b90b;color:#181a20;font:600 16px/1.2 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;" +
    "cursor:pointer;transition:background-color .15s}" +
    ".bscpay-button:hover{background:#f8d12f}" +
    ".bscpay-button:focus-visible{outline:2px solid #181a20;outline-offset:2px;box-shadow:0 0 0 4px #fff}" +
    ".bscpay-button:disabled,.bscpay-button[aria-disabled=true]{cursor:not-allowed;opacity:.75}.bscpay-button[aria-busy=true]{cursor:progress}" +
    "[data-bscpay-error]:empty{display:none}" +
    "[data-bscpay-error]{font:14px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:inherit}";
  var styled = false;

  // A constructed sheet where the browser has them: a shop's CSP that forbids inline <style> does
  // not apply to it.
  function addStyles() {
    if (styled) return;
    styled = true;
    if (typeof CSSStyleSheet === "function" && "adoptedStyleSheets" in document && "replaceSync" in CSSStyleSheet.prototype) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      document.adoptedStyleSheets = document.adoptedStyleSheets.concat([sheet]);
    } else {
      const style = document.createElement("style");
      style.setAttribute("data-bscpay-style", "");
      style.textContent = CSS;
      document.head.appendChild(style);
    }
  }

  function button(target, options) {
    var host = typeof target === "string" ? document.querySelector(target) : target;
    if (!host || typeof host.appendChild !== "function") throw new Error(`BscPay.button: no element matches ${String(target)}`);
    options = options || {};
    if (typeof options.createSession !== "function") {
      throw new Error("BscPay.button: options.createSession must be a function that returns the payment's id");
    }
    var label = options.label || "Pay with crypto";
    var busyLabel = options.busyLabel || "Starting payment…";
    var errorText = options.errorText || "The payment could not be started. Please try again.";
    var wrapper = document.createElement("span");
    wrapper.setAttribute("data-bscpay-button", "");
    wrapper.style.cssText = "display:inline-flex;flex-direction:column;align-items:flex-start;gap:6px";
    var el = document.createElement("button");
    el.type = "button";
    el.textContent = label;
    if (options.className) el.className = options.className;
    else {
      addStyles();
      el.className = "bscpay-button";
    }
    if (options.disabled) el.disabled = true;
    // Present from the start, so that screen readers announce the message when it appears.
    var error = document.createElement("span");
    error.setAttribute("data-bscpay-error", "");
    error.setAttribute("role", "alert");
    wrapper.appendChild(el);
    wrapper.appendChild(error);
    host.appendChild(wrapper);

    var checkout = null;
    var starting = false;
    var removed = false;
    function call(name, value) {
      if (typeof options[name] === "function") options[name](value);
    }
    function idle() {
      starting = false;
      el.removeAttribute("aria-disabled");
      el.removeAttribute("aria-busy");
      el.textContent = label;
    }
    async function onClick() {
      if (starting || checkout || el.disabled) return;
      starting = true;
      error.textContent = "";
      // Busy is aria-disabled, not disabled: the button keeps the focus, and the modal gives it back here.
      el.setAttribute("aria-disabled", "true");
      el.setAttribute("aria-busy", "true");
      el.textContent = busyLabel;
      try {
        const sessionId = await options.createSession();
        idle();
        if (removed) return;
        checkout = open(sessionId, {
          onCompleted: (data) => call("onCompleted", { sessionId: data.sessionId, status: data.status }),
          onStatus: (data) => call("onStatus", { sessionId: data.sessionId, status: data.status }),
        });
      } catch (err) {
        idle();
        error.textContent = errorText;
        call("onError", err instanceof Error ? err : new Error(String(err)));
        return;
      }
      var outcome = await checkout.result;
      checkout = null;
      call("onOutcome", outcome);
    }
    el.addEventListener("click", () => {
      void onClick();
    });
    return {
      element: el,
      /** Takes the button away (and closes its checkout if one is open: its outcome is still reported). */
      remove: () => {
        removed = true;
        if (checkout) checkout.close();
        if (wrapper.parentNode) wrapper.parentNode.removeChild(wrapper);
      },
    };
  }

  window.BscPay = { open: open, button: button, base: base };
})();
