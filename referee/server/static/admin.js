// The box's admin page: every table (Tuki's and the card games'), to open, archive or delete. The admin key comes in the
// fragment (#a=KEY), is kept in this browser's storage and travels as X-Admin-Key.
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("i18n").textContent);
  const tr = (key, vars) => window.refereeUI.tr(T, key, vars);
  const $ = (id) => document.getElementById(id);
  const el = window.refereeUI.el;
  const SEP = window.refereeUI.sep(T);
  const m = location.hash.match(/a=([A-Za-z0-9_\-]+)/);
  if (m) {
    localStorage.setItem("referee.admin", m[1]);
    history.replaceState(null, "", location.pathname + location.search);
  }
  let key = localStorage.getItem("referee.admin");

  async function api(method, path) {
    $("error").textContent = "";
    const r = await fetch(path, {method: method, headers: {"X-Admin-Key": key || ""}});
    if (r.status === 401 || r.status === 403) {
      localStorage.removeItem("referee.admin");
      key = null;
      $("admin-key").hidden = false;
    }
    if (!r.ok) {
      let msg = String(r.status);
      try { msg = window.refereeErrorWords(T, await r.json(), msg); } catch (e) { /* not JSON */ }
      window.refereeUI.sayError($("error"), msg);  // at the page's end: scrolled into sight
      return null;
    }
    return r.status === 204 ? {} : r.json();
  }
  // one list: the Tuki tables (/api/tables) or the card tables (/api/games), the same buttons
  function show(list, tables, api_base, confirmKey) {
    const ul = $(list);
    ul.replaceChildren();
    $(list + "-title").hidden = false;
    if (!tables.length) ul.append(el("li", {}, tr("tables.none")));
    for (const tb of tables) {
      const shown = window.refereeUI.tableName(T, tb.name, tb.demo);
      const name = tb.view_path ? el("a", {class: "big", href: tb.view_path}, shown)
        : el("span", {class: "big"}, shown);
      const li = el("li", {}, name, el("span", {class: "muted"},
        tb.damaged ? tr("tables.damaged") + ": " + tb.damaged
          : (tb.archived ? tr("admin.archived") + SEP : "") + window.refereeUI.names(tb.players, T)));
      const acts = el("div", {class: "row wrap acts"});
      if (!tb.archived && !tb.damaged) acts.append(el("button", {class: "button alt",
        type: "button", onclick: async () => {
          if (await api("POST", api_base + tb.id + "/archive")) load();
        }}, tr("admin.archive")));
      acts.append(el("button", {class: "button danger", type: "button", onclick: async () => {
        if (!confirm(tr(confirmKey, {name: shown}))) return;
        if (await api("DELETE", api_base + tb.id)) load();
      }}, tr("admin.delete")));
      li.append(acts);
      ul.append(li);
    }
  }
  async function load() {
    if (!key) { $("admin-key").hidden = false; return; }
    const tables = await api("GET", "/api/tables");
    if (!tables) return;
    const games = await api("GET", "/api/games");
    if (!games) return;
    $("admin-key").hidden = true;
    show("admin-tables", tables, "/api/tables/", "admin.confirm");
    show("admin-games", games, "/api/games/", "admin.confirm_game");
    loadCalibration(tables);
  }
  // calibrate a station's colours through a table's place camera (the stack on the build line)
  async function loadCalibration(tables) {
    const stations = await (await fetch("/api/stations")).json();
    $("cal-station").replaceChildren(...stations.map((s) =>
      el("option", {value: s.id}, s.id + SEP + tr("level." + s.level))));
    const cams = [];
    for (const tb of tables) {
      if (tb.damaged || tb.archived) continue;
      const view = await api("GET", "/api/tables/" + tb.id);
      if (!view) continue;
      for (const p of view.places) cams.push(el("option", {value: tb.id + ":" + p.index},
        window.refereeUI.tableName(T, tb.name, tb.demo) + SEP + (p.index + 1) + SEP + p.station + " (" + tr("cam." + p.camera.kind) + ")"));
    }
    $("cal-camera").replaceChildren(...cams);
    $("calibrate").hidden = !cams.length;
  }
  $("cal-go").addEventListener("click", async () => {
    const [table, place] = $("cal-camera").value.split(":");
    const body = {table: table, place: Number(place)};
    const order = $("cal-order").value.trim();
    if (order) body.order = order;
    $("cal-result").textContent = "…";
    const r = await fetch("/api/stations/" + encodeURIComponent($("cal-station").value) +
      "/colours", {method: "POST", headers: {"X-Admin-Key": key || "",
      "Content-Type": "application/json"}, body: JSON.stringify(body)});
    const data = await r.json();
    $("cal-result").textContent = r.ok
      ? tr("cal.done", {profile: data.profile}) + " " + Object.entries(data.colours)
          .map(([c, lab]) => c + " L" + lab[0]).join(SEP)
      : window.refereeErrorWords(T, data, String(r.status));
  });

  $("admin-key").addEventListener("submit", (e) => {
    e.preventDefault();
    key = e.target.key.value.trim();
    localStorage.setItem("referee.admin", key);
    load();
  });
  load();
})();
