// Webinfra dashboard: small progressive enhancements; every page works
// without this file.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // Copy buttons: <button data-copy="element-id" hidden> copies that
  // element's text; shown only when the clipboard can be used.
  for (const btn of document.querySelectorAll("button[data-copy]")) {
    const target = document.getElementById(btn.dataset.copy);
    if (!target) continue;
    btn.hidden = false;
    btn.addEventListener("click", async () => {
      const text = target.textContent.trim();
      try {
        await navigator.clipboard.writeText(text);
        btn.textContent = "Copied";
      } catch {
        const range = document.createRange();
        range.selectNodeContents(target);
        const sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        btn.textContent = "Selected: press Ctrl+C";
      }
      setTimeout(() => { btn.textContent = "Copy"; }, 2500);
    });
  }
  // Destructive forms ask first: <form data-confirm="question">.
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (ev) => {
      if (!window.confirm(form.dataset.confirm)) ev.preventDefault();
    });
  }
  // After a refused form, focus the first field in error (or the alert),
  // so keyboard and screen-reader users land on what to fix.
  const bad = document.querySelector("[aria-invalid='true']") || document.getElementById("page-error");
  if (bad) {
    if (!bad.hasAttribute("tabindex") && bad.id === "page-error") bad.setAttribute("tabindex", "-1");
    bad.focus();
  }
});
