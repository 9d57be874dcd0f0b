// The new-table form: posts JSON to the API and shows the control link once.
"use strict";
(function () {
  const form = document.getElementById("new-table");
  const T = JSON.parse(document.getElementById("i18n").textContent);
  const tr = (key, vars) => window.refereeUI.tr(T, key, vars);
  // Show one build place per builder (players, at most 3), and the device field only for
  // cameras that need one.
  function builders() {
    const n = form.elements.players.value.split("\n").map((s) => s.trim()).filter(Boolean).length;
    return Math.min(Math.max(n, 2), 3);
  }
  function refresh() {
    const k = builders();
    const names = form.elements.players.value.split("\n").map((s) => s.trim()).filter(Boolean);
    const sel = form.elements.first_lookout;
    const keep = sel.value;
    sel.replaceChildren(...names.map((n, i) => new Option(n, String(i))));
    if (keep && Number(keep) < names.length) sel.value = keep;
    document.querySelectorAll(".place").forEach((div) => {
      const i = Number(div.dataset.place);
      div.hidden = i >= k;
      const kind = form.elements["camera" + i].value;
      const dev = form.elements["device" + i];
      dev.closest("label").hidden = !(kind === "capture" || kind === "folder");
      // the field's words and example fit the kind: a folder is named, a camera is a
      // number, a file or an address (a folder showed "Device, file or URL" and rtsp://)
      const folder = kind === "folder";
      dev.closest("label").querySelector(".device-label").textContent =
        tr(folder ? "new.device_folder" : "new.device_capture");
      dev.placeholder = folder ? "table1" : "0 / rtsp://… / http://…/video";
      // a station on the default colours says so beside it
      const opt = form.elements["station" + i].selectedOptions[0];
      div.querySelector(".station-colours").hidden = !opt || opt.dataset.colours !== "default";
    });
  }
  // stations chosen that are all of the advanced level (their stones include orange): the
  // table plays advanced (a normal table refused them, and the advice was to recalibrate)
  function fitLevel() {
    const chosen = [...document.querySelectorAll(".place")].filter((d) => !d.hidden)
      .map((d) => form.elements["station" + d.dataset.place].selectedOptions[0])
      .filter(Boolean).map((o) => o.dataset.level);
    const note = document.getElementById("level-switched");
    if (chosen.length && chosen.every((l) => l === "advanced") &&
        form.elements.level.value !== "advanced") {
      form.elements.level.value = "advanced";
      note.textContent = tr("new.level_switched", {level: tr("level.advanced")});
      note.hidden = false;
    }
  }
  form.addEventListener("input", refresh);
  form.addEventListener("change", (e) => {
    refresh();
    if (e.target.name && e.target.name.startsWith("station")) fitLevel();
    if (e.target.name === "level") document.getElementById("level-switched").hidden = true;
  });
  refresh();
  // What is wrong with the players typed, in the page's words, before anything is sent (the
  // box checks them again): the box's own answer said only "something in the form is not
  // valid". As the box counts: 2 to 4, at most 30 letters each, no name twice ("Ava" and
  // "ava" are one name).
  const NAME_MAX = 30;
  function playersProblem(players) {
    if (players.length < 2 || players.length > 4)
      return tr("refusal.table.player-count", {game: tr("new.game_name"), min: 2, max: 4,
        n: players.length});
    const seen = {};
    for (let i = 0; i < players.length; i++) {
      const name = players[i].normalize("NFC");
      if ([...name].length > NAME_MAX) return tr("new.name_long", {n: i + 1, most: NAME_MAX});
      const key = name.normalize("NFKC").toLowerCase();
      if (seen[key] !== undefined) return tr("refusal.table.same-name", {a: seen[key] + 1, b: i + 1});
      seen[key] = i;
    }
    return "";
  }
  window.refereeUI.oneAtATime(form, async () => {
    const f = form.elements;
    const players = f.players.value.split("\n").map((s) => s.trim()).filter(Boolean);
    const err = document.getElementById("error");
    window.refereeUI.sayError(err, playersProblem(players));
    if (err.textContent) return;
    const builders = players.length >= 4 ? 3 : players.length;
    const places = [];
    for (let i = 0; i < Math.min(builders, 3); i++) {
      const kind = f["camera" + i].value;
      const cam = {kind: kind};
      const dev = f["device" + i].value.trim();
      if (kind === "capture") cam.device = dev;
      if (kind === "folder") cam.path = dev;
      places.push({station: f["station" + i].value, camera: cam});
    }
    const body = {name: f.name.value, players: players, level: f.level.value,
      language: document.documentElement.lang, places: places,  // the header menu's
      first_lookout: Number(f.first_lookout.value || 0), listed: f.listed.checked};
    // cameras of the box itself need its admin key (kept by the admin page, or typed here)
    const admin = f.admin_key.value.trim() || localStorage.getItem("referee.admin") || "";
    const headers = admin ? {"X-Admin-Key": admin} : {};
    const {r, data} = await window.refereeUI.postJSON("/api/tables", body, headers);
    if (!r) {
      window.refereeUI.sayError(err, tr("g.net_error"));
      return;
    }
    if (!r.ok || !data) {
      window.refereeUI.sayError(err, window.refereeErrorWords(T, data, String(r.status)));
      return;
    }
    // both links are for phones: the owner sends the control link to their own phone, so it
    // has the box's network address too (a localhost link opens on no phone)
    const control = window.refereeUI.withLang(window.refereeUI.base() + data.control_path);
    const viewer = window.refereeUI.base() + data.viewer_path;
    const c = document.getElementById("control-link");
    c.href = control; c.textContent = control;
    const v = document.getElementById("viewer-link");
    v.href = viewer; v.textContent = viewer;
    for (const link of [c, v]) link.after(window.refereeUI.copyButton(T, link));
    // the first step on this phone: the table's controls, or the maker's own seat
    let seats = [];
    try {
      const s = await fetch("/api/tables/" + data.id + "/seats",
        {headers: {"X-Table-Secret": data.secret}});
      if (s.ok) seats = await s.json();
    } catch (e) { /* no seats offered: the controls' page lists them */ }
    window.refereeUI.openHere(T, document.getElementById("open-here"), data.control_path,
      "referee.secret." + data.id, data.secret, seats);
    form.hidden = true;
    document.getElementById("created").hidden = false;
    window.scrollTo(0, 0);  // the form was long: the page starts at its new top
  });
})();
