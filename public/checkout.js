/*
 * BSC Pay embedded checkout. On your shop's page:
 *   <script src="https://pay.example.com/checkout.js"></script>
 *   BscPay.open(sessionId, { onCompleted: (status) => …, onClosed: (status) => … });
 * The checkout opens as a modal over your page. Its outcome reaches you only if your page's
 * origin is one of the domains you whitelisted in BSC Pay.
 */
(() => {
  var script = document.currentScript;
  var base = script?.src ? new URL(script.src).origin : window.location.origin;

  function open(sessionId, options) {
    if (!/^[0-9a-f-]{36}$/i.test(String(sessionId))) throw new Error("BscPay.open: sessionId must be the payment's id");
    options = options || {};
    var last = null;
    var overlay = document.createElement("div");
    overlay.setAttribute("data-bscpay-overlay", "");
    overlay.style.cssText =
      "position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center;padding:16px";
    var frame = document.createElement("iframe");
    frame.src = `${base}/pay/${encodeURIComponent(sessionId)}?embed=1`;
    frame.title = "BSC Pay checkout";
    frame.allow = "clipboard-write";
    frame.style.cssText =
      "width:100%;max-width:440px;height:min(760px,100%);border:0;border-radius:16px;background:#fff;box-shadow:0 20px 60px rgba(0,0,0,.35)";
    overlay.appendChild(frame);

    function close() {
      window.removeEventListener("message", onMessage);
      document.removeEventListener("keydown", onKey);
      if (overlay.parentNode) overlay.parentNode.removeChild(overlay);
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
    return { close: close };
  }

  window.BscPay = { open: open };
})();
