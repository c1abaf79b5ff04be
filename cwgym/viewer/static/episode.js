// cwgym view, episode page: steps through the embedded trace. No network, no libraries.
(function () {
  "use strict";
  const trace = JSON.parse(document.getElementById("trace").textContent);
  const last = trace.positions.length - 1;
  const $ = (id) => document.getElementById(id);
  const scrubber = $("scrubber");
  const before = $("before");
  let k = 0;

  function text(id, value) { $(id).textContent = value === null || value === undefined ? "-" : value; }
  function json(value) { return value === null || value === undefined ? "-" : JSON.stringify(value, null, 1); }

  function tags(list) {
    const box = $("step-effects");
    box.replaceChildren();
    if (!list.length) { box.textContent = "-"; return; }
    for (const tag of list) {
      const span = document.createElement("span");
      span.className = "tag";
      span.textContent = tag;
      box.appendChild(span);
    }
  }

  function checks(p) {
    const list = $("checks");
    list.replaceChildren();
    for (const c of p.checks) {
      const li = document.createElement("li");
      li.className = (c.passed ? "pass" : "fail") + (c.flipped ? " flipped" : "");
      li.textContent = (c.passed ? "\u2713 " : "\u2717 ") + c.kind + " " + c.subject + (c.flipped ? "  (flipped)" : "");
      list.appendChild(li);
    }
    text("step-verdict", (p.passed ? "passes" : "does not pass") + (p.score === null || p.score === undefined ? "" : ", score " + p.score));
  }

  function overlay(p) {
    const box = $("hit-box");
    const pointer = $("pointer");
    if (p.hit && p.hit.bounds) {
      const [x, y, w, h] = p.hit.bounds;
      box.setAttribute("x", x); box.setAttribute("y", y); box.setAttribute("width", w); box.setAttribute("height", h);
      box.setAttribute("visibility", "visible");
    } else {
      box.setAttribute("visibility", "hidden");
    }
    if (p.pointer) {
      const [x, y] = p.pointer;
      pointer.querySelector("circle").setAttribute("cx", x);
      pointer.querySelector("circle").setAttribute("cy", y);
      const ph = $("ph"), pv = $("pv");
      ph.setAttribute("x1", x - 16); ph.setAttribute("x2", x + 16); ph.setAttribute("y1", y); ph.setAttribute("y2", y);
      pv.setAttribute("x1", x); pv.setAttribute("x2", x); pv.setAttribute("y1", y - 16); pv.setAttribute("y2", y + 16);
      pointer.setAttribute("visibility", "visible");
    } else {
      pointer.setAttribute("visibility", "hidden");
    }
  }

  function elements(p, shown) {
    const rows = trace.tables[shown.scene] || [];
    const hit = p.hit ? p.hit.id : null;
    const body = $("elements").tBodies[0];
    body.replaceChildren();
    rows.forEach((e, i) => {
      const tr = document.createElement("tr");
      if (e.id === hit) tr.className = "hit";
      tr.title = e.id;
      const state = ["focused", "checked", "selected"].filter((s) => e[s]);
      if (!e.enabled) state.push("disabled");
      for (const value of [i, e.role, e.label || "", e.value || "", state.join(" "), e.bounds.join(" ")]) {
        const td = document.createElement("td");
        td.textContent = value;
        tr.appendChild(td);
      }
      tr.lastChild.previousSibling.className = "state";
      body.appendChild(tr);
    });
    text("element-count", rows.length + " on this screen");
  }

  function show(next) {
    k = Math.max(0, Math.min(last, next));
    const p = trace.positions[k];
    const shown = before.checked && k > 0 ? trace.positions[k - 1] : p;
    const img = $("frame");
    if (shown.frame) { img.src = "../" + shown.frame; img.style.visibility = "visible"; }
    else { img.removeAttribute("src"); img.style.visibility = "hidden"; }
    scrubber.value = k;
    document.body.dataset.position = k;
    text("position", k === 0 ? "reset (0 / " + last + ")" : "step " + k + " / " + last);
    text("step-k", k === 0 ? "0 (reset)" : k);
    text("step-phase", p.phase || "");
    $("step-action").textContent = json(p.action);
    $("step-envelopes").textContent = p.refusal ? "refused: " + p.refusal : json(p.envelopes && p.envelopes.length ? p.envelopes : null);
    $("step-outcome").textContent = json(p.outcomes && p.outcomes.length ? p.outcomes.map((o) => ({success: o.success, value: o.value, error: o.error})) : p.outcome);
    tags(p.effects || []);
    text("step-hit", p.hit ? [p.hit.role, JSON.stringify(p.hit.label || ""), p.hit.id].filter(Boolean).join(" ") + (p.pointer ? " at " + p.pointer.join(", ") : "") : (p.pointer ? "nothing clickable at " + p.pointer.join(", ") : "-"));
    text("step-reward", p.reward);
    text("step-return", p.return);
    checks(p);
    text("step-hash", p.hash);
    overlay(p);
    elements(p, shown);
  }

  scrubber.addEventListener("input", () => show(Number(scrubber.value)));
  before.addEventListener("change", () => show(k));
  $("prev").addEventListener("click", () => show(k - 1));
  $("next").addEventListener("click", () => show(k + 1));
  document.addEventListener("keydown", (event) => {
    if (event.target && event.target.tagName === "INPUT" && event.target.type !== "range" && event.target.type !== "checkbox") return;
    if (event.key === "ArrowRight") { event.preventDefault(); show(k + 1); }
    else if (event.key === "ArrowLeft") { event.preventDefault(); show(k - 1); }
    else if (event.key === "Home") { event.preventDefault(); show(0); }
    else if (event.key === "End") { event.preventDefault(); show(last); }
  });
  show(0);
})();
