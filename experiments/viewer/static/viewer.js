// The run page: poll for new and finished trials (served), or filter rows in place (export).
"use strict";

function pollLive() {
  const live = document.getElementById("live");
  if (!live) return;
  const params = new URLSearchParams(window.location.search);
  params.set("since", live.dataset.version);
  fetch("/live?" + params.toString())
    .then((r) => (r.status === 200 ? r.text() : null))
    .then((html) => {
      if (html !== null) live.outerHTML = html;
    })
    .catch(() => {})
    .finally(() => window.setTimeout(pollLive, 1500));
}

function filterRows(event) {
  if (event) event.preventDefault();
  const form = document.getElementById("filters");
  const want = Object.fromEntries(new FormData(form).entries());
  const needle = (want.q || "").toLowerCase();
  const texts = window.TRIAL_TEXT || {};
  let shown = 0;
  for (const row of document.querySelectorAll("tr.trial")) {
    const ok =
      (!want.agent || row.dataset.agent === want.agent) &&
      (!want.run || row.dataset.run === want.run) &&
      (!want.outcome || row.dataset.label === want.outcome) &&
      (!want.status || row.dataset.status === want.status) &&
      (!needle || (texts[row.dataset.key] || "").includes(needle));
    row.hidden = !ok;
    shown += ok ? 1 : 0;
  }
  document.getElementById("total").textContent = shown + " match";
}

document.addEventListener("DOMContentLoaded", () => {
  const mode = document.body.dataset.mode;
  if (mode === "live") window.setTimeout(pollLive, 1500);
  if (mode === "static") {
    const form = document.getElementById("filters");
    if (form) {
      form.addEventListener("submit", filterRows);
      const run = new URLSearchParams(window.location.search).get("run");
      if (run && form.elements.run) {
        form.elements.run.value = run; // a leaderboard cell's link: that cell's trials
        filterRows();
      }
    }
  }
  const toggle = document.getElementById("show-private");
  if (toggle) {
    const apply = () => document.body.classList.toggle("hide-private", !toggle.checked);
    toggle.addEventListener("change", apply);
    apply();
  }
});
