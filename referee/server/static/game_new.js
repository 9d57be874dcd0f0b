// The new card table form: seats in order (a person, an open seat, or a bot), options.
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("i18n").textContent);
  const tr = (key, vars) => window.refereeUI.tr(T, key, vars);  // numbers in the page's digits
  const $ = (id) => document.getElementById(id);
  const form = $("game-form");
  const LIMITS = {taki: [2, 10], tukki: [2, 6], tokaido: [2, 5]};
  const CHARS = ["merchant", "priest", "gourmet", "painter", "courier"];
  const KINDS = ["person", "open", "random", "heuristic", "easy", "medium", "hard"];
  function row(i, kind) {
    const li = document.createElement("li");
    li.className = "seat-row";
    const name = document.createElement("input");
    name.name = "name"; name.maxLength = 30; name.placeholder = tr("g.name_n", {n: i + 1});
    name.setAttribute("aria-label", tr("g.name_n", {n: i + 1}));
    const sel = document.createElement("select");
    sel.name = "kind"; sel.setAttribute("aria-label", tr("g.seat_kind"));
    for (const k of KINDS) { const o = document.createElement("option"); o.value = k; o.textContent = tr("g.kind." + k); sel.append(o); }
    sel.value = kind;
    const sync = () => { name.hidden = sel.value === "open"; name.required = sel.value === "person"; };
    sel.addEventListener("change", sync); sync();
    li.append(name, sel);
    return li;
  }
  const rows = $("seat-rows");
  rows.append(row(0, "person"), row(1, "person"), row(2, "heuristic"));
  function limits() { return LIMITS[form.game.value]; }
  function charRows() {
    const box = $("char-rows");
    box.hidden = form.characters.value !== "chosen";
    box.replaceChildren();
    for (let i = 0; i < rows.children.length; i++) {
      const s = document.createElement("select"); s.name = "char";
      s.setAttribute("aria-label", tr("g.name_n", {n: i + 1}));
      for (const c of CHARS) { const o = document.createElement("option"); o.value = c; o.textContent = tr("g.char." + c); s.append(o); }
      s.value = CHARS[i % CHARS.length];
      box.append(s);
    }
  }
  function sync() {
    for (const g of ["taki", "tukki", "tokaido"]) $("opt-" + g).hidden = form.game.value !== g;
    while (rows.children.length > limits()[1]) rows.lastChild.remove();
    $("add-seat").disabled = rows.children.length >= limits()[1];
    $("drop-seat").disabled = rows.children.length <= limits()[0];
    charRows();
  }
  form.game.addEventListener("change", sync);
  form.characters.addEventListener("change", charRows);
  $("add-seat").addEventListener("click", () => { rows.append(row(rows.children.length, "person")); sync(); });
  $("drop-seat").addEventListener("click", () => { rows.lastChild.remove(); sync(); });
  sync();
  window.refereeUI.oneAtATime(form, async () => {
    $("form-error").textContent = "";
    const players = [], bots = {};
    [...rows.children].forEach((li, i) => {
      const kind = li.querySelector("select").value, n = li.querySelector("input").value.trim();
      if (kind === "open") players.push(null);
      else if (kind === "person") players.push(n);
      else { players.push(n || null); bots[String(i)] = kind; }
    });
    const options = {};
    if (form.game.value === "taki" && form.tournament.checked) options.tournament = true;
    if (form.game.value === "tukki" && form.rounds.value) options.rounds = Number(form.rounds.value);
    if (form.game.value === "tokaido" && form.characters.value === "chosen")
      options.characters = [...document.querySelectorAll("#char-rows select")].map((s) => s.value);
    // the table's language (for phones that choose none) is this page's: the header's menu
    // chooses it, the one language menu of the page
    const body = {game: form.game.value, players, bots, options,
                  language: document.documentElement.lang,
                  listed: form.listed.checked};
    const {r, data: out} = await window.refereeUI.postJSON("/api/games", body);
    if (!r) { window.refereeUI.sayError($("form-error"), tr("g.net_error")); return; }
    for (const x of form.querySelectorAll(".clash")) x.classList.remove("clash");
    if (!r.ok || !out) {
      window.refereeUI.sayError($("form-error"), window.refereeErrorWords(T, out, String(r.status)));
      if (!out) return;
      // the two seats that clash (the same name, the same character) are marked
      const marked = {"table.same-name": rows.children, "table.same-character": $("char-rows").children}[out.code];
      for (const n of marked ? [out.params.a, out.params.b] : []) if (marked[n - 1]) marked[n - 1].classList.add("clash");
      return;
    }
    // both links are for phones: the owner sends the control link to their own phone, so it
    // has the box's network address too (a localhost link opens on no phone)
    const control = window.refereeUI.withLang(window.refereeUI.base() + out.control);
    const view = window.refereeUI.base() + out.view;
    $("control-link").textContent = control; $("control-link").href = control;
    $("view-link").textContent = view; $("view-link").href = view;
    for (const link of [$("control-link"), $("view-link")])
      link.after(window.refereeUI.copyButton(T, link));
    // the first step on this phone: the table's controls, or the maker's own seat (a person's
    // seat with its link: a bot's and an open seat have none)
    const seats = (out.seats || []).filter((s) => s.link && !s.bot)
      .map((s) => ({seat: s.seat, name: s.name, path: s.link}));
    window.refereeUI.openHere(T, $("open-here"), out.control, "referee.game.key." + out.id,
      out.secret, seats);
    if (out.code) { $("created-code").hidden = false; $("created-code").querySelector(".code").textContent = out.code; }
    form.hidden = true; $("created").hidden = false;
    window.scrollTo(0, 0);  // the form was long: the page starts at its new top
  });
})();
