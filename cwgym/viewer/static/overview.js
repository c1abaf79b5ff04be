// cwgym view, overview: sort the episode table by a column, filter its rows. No network.
(function () {
  "use strict";
  const table = document.getElementById("episodes");
  const body = table.tBodies[0];
  const filter = document.getElementById("filter");
  const outcome = document.getElementById("outcome-filter");
  const shown = document.getElementById("shown");

  function value(row, col) { return JSON.parse(row.cells[col].dataset.value); }

  function compare(a, b) {
    if (a === b) return 0;
    if (a === null) return -1;
    if (b === null) return 1;
    if (typeof a === "number" && typeof b === "number") return a - b;
    return String(a).localeCompare(String(b), undefined, {numeric: true});
  }

  for (const th of table.tHead.rows[0].cells) {
    th.addEventListener("click", () => {
      const col = Number(th.dataset.col);
      const descending = th.classList.contains("asc");
      for (const other of table.tHead.rows[0].cells) other.classList.remove("asc", "desc");
      th.classList.add(descending ? "desc" : "asc");
      const rows = Array.from(body.rows);
      rows.sort((a, b) => (descending ? -1 : 1) * compare(value(a, col), value(b, col)));
      body.append(...rows);
    });
  }

  function apply() {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const wanted = outcome.value;
    let count = 0;
    for (const row of body.rows) {
      const text = row.textContent.toLowerCase();
      const ok = words.every((w) => text.includes(w)) && (!wanted || row.classList.contains(wanted));
      row.hidden = !ok;
      if (ok) count += 1;
    }
    shown.textContent = count + " of " + body.rows.length + " shown";
  }

  filter.addEventListener("input", apply);
  outcome.addEventListener("change", apply);
  apply();
})();
