// The table page: one WebSocket carries the table's whole view; controls need the secret.
"use strict";
(function () {
  const app = document.getElementById("app");
  const tableId = app.dataset.table;
  const T = JSON.parse(document.getElementById("i18n").textContent);
  const tr = (key, vars) => window.refereeUI.tr(T, key, vars);
  const el = window.refereeUI.el;
  const SEP = window.refereeUI.sep(T);
  const num = window.refereeUI.num;  // numbers in the page language's digits
  const $ = (id) => document.getElementById(id);
  const keyName = "referee.secret." + tableId;
  const seatName = "referee.seat." + tableId;

  // the table's or a seat's key: from the link's fragment, else saved on this phone
  let {secret, seatKey, pending} = window.refereeUI.linkKeys(keyName, seatName);
  function keepPending() {
    if (pending) window.refereeUI.keepKey(keyName, seatName, pending);
    pending = null;
  }
  function dropPending() {
    pending = null;
    ({secret, seatKey} = window.refereeUI.savedKeys(keyName, seatName));
  }
  // who this phone is, as the server said in its welcome: {role, seat}
  let me = {role: "view", seat: null};
  let lastView = null;
  const canAct = () => me.role === "table" || me.role === "seat";
  const actsFor = (seat) => me.role === "table" || (me.role === "seat" && me.seat === seat);
  const isLookout = (view) => me.role === "table" ||
    (me.role === "seat" && view && me.seat === view.lookout);
  function keyHeaders() {
    if (secret) return {"X-Table-Secret": secret};
    if (seatKey) return {"X-Seat-Key": seatKey};
    return {};
  }
  const fileInputs = {};
  // a photo's refusal (not a photo, unreadable, too large, no connection) just under the
  // button that sent it, not at the page's end far below on a phone: one line per button,
  // kept across re-renders as its file input is, and read out at once (role="alert")
  const uploadErrors = {};
  const uploadError = (key) => uploadErrors[key] ||
    (uploadErrors[key] = el("p", {class: "error upload-error", role: "alert"}));
  // a builder's refused upload ("no photo") is said until that build moves on: a photo
  // that came another way (the camera, another phone), a verdict, a decision
  const buildSigs = {};
  function forgetStaleErrors(b) {
    const sig = [b.state, b.status, b.photo || "", b.decided || ""].join("|");
    if (buildSigs[b.seat] !== undefined && buildSigs[b.seat] !== sig) {
      for (const k in uploadErrors) if (k.endsWith(":" + b.seat)) uploadErrors[k].textContent = "";
    }
    buildSigs[b.seat] = sig;
  }

  // A photo field in the page's language: the browser's own file field says "Choose File"
  // and "No file chosen" in the browser's language, not the page's. Its input stays (hidden
  // from sight, not from the keyboard: Tab reaches it, Enter or Space opens the chooser); a
  // <label> for it is the button, with the page's words, and the chosen photo's name beside
  // it. One field per input, kept across re-renders as the input is.
  const photoFields = new WeakMap();
  let photoFieldIds = 0;
  function photoField(input) {
    let field = photoFields.get(input);
    if (field) return field;
    input.id = input.id || "photo-" + tableId + "-" + (++photoFieldIds);
    input.classList.add("file-input");
    const name = el("span", {class: "file-name", dir: "auto"});
    const show = () => {
      const f = input.files && input.files[0];
      name.textContent = f ? f.name : tr("ctl.no_photo");
      name.classList.toggle("muted", !f);
    };
    input.addEventListener("change", show);
    input.refereeShow = show;  // after the input is emptied by a script (no change event)
    show();
    field = el("span", {class: "file-field"}, input,
      el("label", {for: input.id, class: "button alt file-pick"}, tr("ctl.choose_photo")), name);
    photoFields.set(input, field);
    return field;
  }
  function clearPhoto(input) {
    input.value = "";
    if (input.refereeShow) input.refereeShow();
  }

  const errorWords = (data, fallback) => window.refereeErrorWords(T, data, fallback);
  // A fault or reason code in plain words: "position:B" -> "The blue stone is in the wrong place."
  function words(kind, item) {
    const code = item.code;
    if (T[kind + "." + code]) return tr(kind + "." + code);
    const i = code.lastIndexOf(":");
    const head = code.slice(0, i), tail = code.slice(i + 1);
    if (T[kind + "." + head]) {
      return tr(kind + "." + head, {stone: tr("stone." + tail), animal: tr("die." + tail)});
    }
    return item.text || code;
  }

  function drawGrid(box, rows) {
    box.replaceChildren();
    if (!rows || !rows.length) return;
    const w = Math.max(...rows.map((r) => r.length));
    // tracks that never grow past their share: a square cell sized by the rows' height
    // made the columns wider than the box (the right column cut by a pixel, row gaps as
    // ticks on the frame); the box's own aspect ratio keeps the cells square
    box.style.gridTemplateColumns = "repeat(" + w + ", minmax(0, 1fr))";
    box.style.gridTemplateRows = "repeat(" + rows.length + ", minmax(0, 1fr))";
    box.style.aspectRatio = w + " / " + rows.length;
    // a tall card keeps its whole grid in view: narrower, so it is no taller than ~2 wide ones
    box.style.width = rows.length > 2 * w ? Math.round(288 * w / rows.length) + "px" : "";
    for (const r of rows) for (let x = 0; x < w; x++) {
      const c = r[x] || ".";
      box.append(el("span", {class: "cell c-" + (c === "." ? "e" : c)}));
    }
  }
  function drawDie(box, die) {
    box.replaceChildren();
    if (!die) return;
    const icon = el("div", {class: "die-icon" + (die.white_square ? " white" : "")},
      el("img", {src: "/static/die-" + die.animal + ".svg", alt: tr("die." + die.animal)}));
    box.append(icon, el("div", {class: "die-words"},
      // the face named whole, as the picker's faces are: "bear · with white square"
      el("b", {}, tr("die." + die.animal) + (die.white_square ? SEP + tr("die.whitesq") : "")),
      el("span", {}, tr("die.turn." + die.animal)),
      el("span", {class: "rule"}, tr(die.white_square ? "die.white" : "die.plain"))));
  }

  // A build's "done" with the photo chosen in `file` (if any), its error under it; one
  // upload per photo field at a time: a tap while the photo was on its way sent it twice
  // (the flag is on the input, which outlives a redrawn view). `btn` is off meanwhile.
  async function sendPhoto(file, seat, fkey, btn) {
    if (file.refereeSending) return;
    const fd = new FormData();
    if (file.files && file.files[0]) fd.append("photo", file.files[0]);
    file.disabled = file.refereeSending = true;
    if (btn) btn.disabled = true;
    try {
      if (await call("/done/" + seat, fd, true, uploadError(fkey))) clearPhoto(file);
    } finally {
      file.disabled = file.refereeSending = false;
      if (btn) btn.disabled = false;
    }
  }

  // POST to the table; null and the error's words in `errBox` (the controls' line unless
  // given) when it is refused or the box is not reached, which clears when it succeeds
  async function call(path, body, isForm, errBox) {
    const box = errBox || $("ctl-error");
    const fail = (msg) => {
      const section = box.closest("section");
      if (section) section.hidden = false;  // (the controls are hidden once a game is over)
      // said where the person looks: scrolled into sight (the controls' line is below the
      // card pictures and the die faces, off a phone's screen after "Start")
      window.refereeUI.sayError(box, tr("ctl.error", {msg: msg}));
      return null;
    };
    box.textContent = "";
    const opts = {method: "POST", headers: keyHeaders()};
    if (isForm) opts.body = body;
    else if (body !== undefined) {
      opts.body = JSON.stringify(body);
      opts.headers["Content-Type"] = "application/json";
    }
    try {
      const r = await fetch("/api/tables/" + tableId + path, opts);
      if (!r.ok) {
        let msg = r.status + "";
        try { msg = errorWords(await r.json(), msg); } catch (e) { /* not JSON */ }
        return fail(msg);
      }
      return await r.json();
    } catch (e) {
      return fail(tr("g.net_error"));  // the browser's own words are English
    }
  }

  // A control of the round or of a verdict (start, draw, end, rematch, question, answer,
  // decide), one at a time: a second tap while it is sent, or before the page shows what it
  // did, sends nothing (a double tap on "Draw and roll for me" started the round, then said
  // "a round is already under way"). Held until the view reaches the answer's number, at
  // most 3 s.
  let acting = false;
  const waiters = [];
  function reached(seq) {
    if (lastView && lastView.seq >= seq) return Promise.resolve();
    return new Promise((done) => {
      const w = {seq: seq, done: done};
      waiters.push(w);
      setTimeout(() => { waiters.splice(waiters.indexOf(w), 1); done(); }, 3000);
    });
  }
  function viewed(seq) {
    for (const w of waiters.slice()) if (seq >= w.seq) {
      waiters.splice(waiters.indexOf(w), 1);
      w.done();
    }
  }
  async function act(path, body) {
    if (acting) return null;
    acting = true;
    try {
      const out = await call(path, body);
      if (out && typeof out.seq === "number") await reached(out.seq);
      return out;
    } finally {
      acting = false;
    }
  }

  // Why a camera does not work: the words of its code (`refusal.camera.*`, its device,
  // folder or photo name kept left to right inside right-to-left words); a status without a
  // code (an older server) gives the server's own English words, as it always did.
  function cameraWhy(cam) {
    if (typeof cam.code === "string" && T["refusal." + cam.code] !== undefined)
      return errorWords({code: cam.code, params: cam.params || {}}, "");
    return cam.detail || "";
  }

  // a verdict's faults and reasons in words, each sentence once: a fault and a reason often
  // say the same ("The gray stone was not found." was listed twice)
  function verdictWords(v) {
    const ul = el("ul", {class: "faults"});
    const seen = new Set();
    const add = (cls, text) => {
      if (seen.has(text)) return;
      seen.add(text);
      ul.append(el("li", cls ? {class: cls} : {}, text));
    };
    for (const f of v.faults || []) add("", words("fault", f));
    for (const r of v.reasons || []) add("reason", words("reason", r));
    return ul;
  }

  function builderItem(view, b) {
    forgetStaleErrors(b);
    const p = view.players[b.seat];
    const place = view.places[b.place] || {};
    const cam = place.camera || {};
    const state = b.decided ? b.decided : b.state;
    const li = el("li", {class: "builder s-" + state, "data-seat": b.seat},
      el("div", {class: "row between"}, el("b", {class: "name"}, p.name),
        el("span", {class: "pill s-" + state}, tr("state." + state))));
    // a camera that gives no picture says so; a phone place's before its first photo ("idle")
    // has nothing to say: the badge and the photo button say what it waits for (its line,
    // "waiting for a photo", stood under the badge's same words)
    if (cam.state && cam.state !== "live" && cam.state !== "idle" &&
        (b.state === "building" || b.state === "waiting")) {
      // a dead camera says when it is tried again, and why in this page's language (its code)
      const dead = cam.retry_in_s === null || cam.retry_in_s === undefined
        ? tr("cam.broken") : tr("cam.dead", {s: cam.retry_in_s});
      const why = cam.state === "dead" ? cameraWhy(cam) : "";
      li.append(el("p", {class: "cam " + cam.state},
        cam.state === "dead" ? dead : tr("cam." + cam.state),
        why ? el("span", {class: "cam-why"}, why) : null));
    }
    if (b.state === "building" && cam.state === "live" && cam.kind !== "upload") {
      // what the camera sees now, refreshed while building (to aim it)
      li.append(el("img", {class: "shot preview", alt: tr("new.camera"),
        src: "/api/tables/" + tableId + "/places/" + b.place + "/preview.jpg?t=" + Date.now()}));
    }
    if (b.overlay || b.photo) {
      // tap: the overlay full screen (pinch to zoom), its words below in this phone's language
      li.append(el("button", {type: "button", class: "shot-open", "data-focus": "shot:" + b.seat,
        "aria-label": p.name + SEP + tr("table.card"), onclick: () => openShot(view, b)},
        el("img", {class: "shot", src: b.overlay || b.photo, alt: p.name, loading: "lazy"})));
    }
    const v = b.verdict;
    if (v) {
      // the heading says what counts: the decision once there is one (its colour too, as the
      // badge above), with what the referee measured beside the decision's words; it showed
      // a green "correct" badge over a red "Wrong"
      const said = b.decided || v.verdict;
      li.append(el("p", {class: "verdict v-" + said}, tr("verdict." + said)));
      if (b.decided) li.append(el("p", {class: "muted decided"},
        tr(view.round && b.seat === view.round.lookout ? "verdict.voted" : "verdict.decided",
          {v: tr("verdict." + b.decided)}) + SEP +
        tr("verdict.measured", {v: tr("verdict." + v.verdict)})));
      li.append(verdictWords(v));
    }
    if (b.error) li.append(el("p", {class: "error"}, b.error));
    // unsure because of the photo itself (mat not seen, dark, turned...): take it again
    if (v && v.verdict === "unsure" && !b.decided && actsFor(b.seat) && view.round &&
        !view.over && (v.reasons || []).length &&
        v.reasons.every((r) => ["mat", "photo", "camera"].includes(r.code.split(":")[0]))) {
      // one input per builder and round, kept across re-renders (the view may be redrawn
      // while the phone's camera is open); a chosen photo is sent at once, as with DONE
      const fkey = "retake:" + view.round.number + ":" + b.seat;
      let file = fileInputs[fkey];
      const send = () => file.files && file.files[0] ? sendPhoto(file, b.seat, fkey) : null;
      if (!file) {
        file = fileInputs[fkey] = el("input", {type: "file", accept: "image/*", class: "file",
          "aria-label": tr("ctl.retake") + " " + p.name});
        file.addEventListener("change", send);
      }
      const btn = el("button", {class: "button", type: "button", "data-focus": "retake:" + b.seat,
        onclick: () => { if (!file.files || !file.files[0]) file.click(); else send(); }},
      tr("ctl.retake"));
      li.append(el("div", {class: "row wrap acts retake"}, photoField(file), btn),
        uploadError(fkey));
    }
    // a verdict people can question: any player; the lookout then says which is right. The
    // lines about it (questioned, the lookout's answer, the card that stays) are public: every
    // phone reads them, a view link's too; the buttons only on a phone that may act
    const asked = (b.disputed_by || []).length > 0;
    const acting = canAct() && view.round && !view.over;
    if (v && v.verdict !== "unsure" && !b.decided && (acting || (asked && view.round))) {
      const q = el("div", {class: "row wrap acts dispute"});
      const mine = me.role === "seat" ? me.seat : null;
      if (acting && !(b.disputed_by || []).includes(mine) && !b.confirmed) q.append(
        el("button", {class: "button alt", type: "button", "data-focus": "dispute:" + b.seat,
          onclick: () => act("/dispute", {seat: b.seat})}, tr("ctl.dispute")));
      // who answers, by name: the round's lookout (it said only "the lookout"), or the table's
      // owner when the build is the lookout's own (rounds.confirm)
      const looks = view.round && view.round.lookout !== undefined ? view.round.lookout
        : view.lookout;
      const asks = b.seat === looks || !view.players[looks] ? tr("verdict.disputed_owner")
        : tr("verdict.disputed", {name: window.refereeUI.iso(view.players[looks].name)});
      if (asked) q.append(el("p", {class: "muted"}, b.confirmed
        ? tr("verdict.confirmed", {v: tr("verdict." + b.confirmed)}) : asks));
      // the answer came after the penalty card and says otherwise: it only labels the photo
      if (asked && b.card_stays) q.append(el("p", {class: "muted card-stays"},
        tr("verdict.card_stays")));
      // the answer is the round's lookout's (rounds.confirm), never on their own build
      const answers = me.role === "table" || (me.role === "seat" && view.round &&
        me.seat === view.round.lookout && me.seat !== b.seat);
      if (acting && asked && !b.confirmed && answers) q.append(
        el("button", {class: "button ok", type: "button", "data-focus": "confirm-yes:" + b.seat,
          onclick: () => act("/confirm", {seat: b.seat, correct: true})}, tr("ctl.correct")),
        el("button", {class: "button danger", type: "button", "data-focus": "confirm-no:" + b.seat,
          onclick: () => act("/confirm", {seat: b.seat, correct: false})}, tr("ctl.wrong")));
      if (q.childNodes.length) li.append(q);
    }
    // why the place asks for a photo (its camera gave no picture after "done")
    if (b.reason) li.append(el("p", {class: "error reason"}, words("reason", {code: b.reason})));
    if (actsFor(b.seat) && view.round && !view.over) {
      const acts = el("div", {class: "row wrap acts"});
      let sentBy = null;  // the DONE or photo button's key, for its error line below it
      // "done" while building; a photo for a build that still has none (phone place, retry)
      const needsPhoto = b.state === "waiting" && (b.status === "done" || b.status === "stopped");
      // a seat's own phone has the big DONE at the bottom instead (bigDone)
      const big = me.role === "seat";
      if ((b.state === "building" && view.round.status === "building" && !big) || needsPhoto) {
        // one file input per builder and round, kept across re-renders so a chosen photo stays
        const fkey = view.round.number + ":" + b.seat;
        // no `capture`: on Android it opens the camera alone, and a photo already taken
        // (the gallery) could not be chosen; the phone offers camera and gallery without it.
        // The big DONE (a photo now) keeps it
        const file = fileInputs[fkey] || (fileInputs[fkey] = el("input", {type: "file",
          accept: "image/*", class: "file",
          "aria-label": tr("ctl.photo") + " " + p.name}));
        const send = () => sendPhoto(file, b.seat, fkey, btn);
        const btn = el("button", {class: "button done", type: "button",
          "data-focus": "done:" + b.seat, onclick: send},
        needsPhoto ? tr("ctl.photo") : tr("ctl.done"));
        // a phone place, a build that needs its photo, or a camera that gives none now
        if (cam.kind === "upload" || needsPhoto || cam.state === "dead" ||
            cam.state === "stalled") acts.append(photoField(file));
        acts.append(btn);
        sentBy = fkey;
      }
      if (acts.childNodes.length) li.append(acts);
      if (sentBy) li.append(uploadError(sentBy));
    }
    if (canAct() && view.round && !view.over && b.state === "unsure" && !b.decided) {
      const acts = el("div", {class: "row wrap acts"});
      {
        for (const by of b.deciders || []) {
          if ((b.voted || []).includes(by) || !actsFor(by)) continue;
          // the lookout decides, unless the build is the lookout's own: then the others do
          const who = b.deciders.length > 1 || by !== view.lookout
            ? view.players[by].name + ": " : "";
          acts.append(el("span", {class: "muted"}, who || tr("ctl.decide")),
            el("button", {class: "button ok", type: "button", "data-focus": "decide-yes:" + b.seat + ":" + by,
              onclick: () => act("/decide", {seat: b.seat, correct: true, by: by})}, tr("ctl.correct")),
            el("button", {class: "button danger", type: "button", "data-focus": "decide-no:" + b.seat + ":" + by,
              onclick: () => act("/decide", {seat: b.seat, correct: false, by: by})}, tr("ctl.wrong")));
        }
      }
      if (acts.childNodes.length) li.append(acts);
    }
    return li;
  }

  function openShot(view, b) {
    const v = b.verdict;
    const text = el("div", {class: "shot-words"},
      el("b", {}, view.players[b.seat].name + (v ? SEP + tr("verdict." + v.verdict) : "")));
    if (v) text.append(verdictWords(v));
    // the lookout (or the voters) decide an unsure build while looking at it full screen
    if (v && v.verdict === "unsure" && !b.decided && canAct()) {
      for (const by of b.deciders || []) {
        if ((b.voted || []).includes(by) || !actsFor(by)) continue;
        text.append(el("div", {class: "row wrap acts"},
          el("button", {class: "button ok", type: "button", onclick: () => {
            act("/decide", {seat: b.seat, correct: true, by: by}); box.remove(); }},
          tr("ctl.correct")),
          el("button", {class: "button danger", type: "button", onclick: () => {
            act("/decide", {seat: b.seat, correct: false, by: by}); box.remove(); }},
          tr("ctl.wrong"))));
      }
    }
    const close = el("button", {type: "button", class: "button alt shot-close"}, "×");
    const box = el("div", {class: "shot-full", role: "dialog", "aria-modal": "true"}, close,
      el("img", {src: b.overlay || b.photo, alt: view.players[b.seat].name}), text);
    const done = () => box.remove();
    close.addEventListener("click", done);
    document.addEventListener("keydown", function esc(e) {
      if (e.key === "Escape") { done(); document.removeEventListener("keydown", esc); }
    });
    document.body.append(box);
    close.focus();
  }

  function render(view) { window.refereeUI.keepingFocus(() => draw(view)); }

  function draw(view) {
    $("table-name").textContent = window.refereeUI.tableName(T, view.name, view.demo);
    const rd = view.round;
    if (rd) {
      // one lookout on the page, the players' list's: the round's while it runs; once its
      // penalty card is given, the next round's (RULINGS.md: whoever took the last card);
      // none once the game is over
      const look = view.over ? "" : rd.status === "over"
        ? SEP + tr("table.next_lookout", {name: view.players[view.lookout].name})
        : SEP + tr("table.lookout") + ": " +
          view.players[rd.lookout === undefined ? view.lookout : rd.lookout].name;
      $("round-title").textContent = (rd.final ? tr("table.final") + SEP : "") +
        tr("table.round", {n: rd.number}) + look;
      drawGrid($("card"), rd.target);
      // the picture is the target, the card as the die turns it (a new user's trial read
      // "Card N07" under it, then the die's "turned a quarter", and turned it again)
      $("card-caption").textContent = rd.card.id && rd.card.id !== "typed"
        ? tr("table.card_turned", {id: rd.card.id}) : tr("table.typed_turned");
      drawDie($("die"), rd.die);
      let res = "";
      if (rd.taker !== null && rd.taker !== undefined) res = tr("table.taker", {name: view.players[rd.taker].name});
      else if (rd.replay) res = tr("table.nobody");
      $("round-result").textContent = res;
      roundVerdicts(view, rd);
      // the "done"s in the order the server received them; each name isolated (<bdi>), so a
      // name in Latin letters on a right-to-left page does not pull the next number to its
      // side (an Arabic phone read "Ava · 2. Ben .1")
      const order = $("done-order");
      order.replaceChildren();
      if (rd.done_order.length) order.append(tr("table.done_order") + ": ",
        ...rd.done_order.flatMap((s, i) => [(i ? SEP : "") + num(i + 1) + ". ",
          el("bdi", {}, view.players[s].name)]));
      bigDone(view, rd);
      const ul = $("builders");
      ul.replaceChildren(...rd.builders.map((b) => builderItem(view, b)));
    } else {
      $("round-title").textContent = tr("table.noround");
      $("card").replaceChildren(); $("die").replaceChildren(); $("card-caption").textContent = "";
      $("round-result").textContent = view.void ? tr("table.void") : "";
      roundVerdicts(view, null);
      $("builders").replaceChildren();
      $("done-order").textContent = "";
      bigDone(view, null);
    }
    const pl = $("players");
    pl.replaceChildren(...view.players.map((p) => el("li", {class: "player" +
        (p.seat === view.lookout ? " lookout" : "") + (view.winners.includes(p.seat) ? " won" : "")},
      el("span", {}, p.name + (p.seat === view.lookout ? SEP + tr("table.lookout") : "")),
      el("span", {class: "tally", "aria-label": tr("table.penalties")},
        "▮".repeat(p.penalties) + " " + num(p.penalties)))));
    const w = $("winner");
    if (view.over) {
      const names = view.winners.map((s) => view.players[s].name);
      w.textContent = tr("table.over") + SEP + (names.length === 0 ? tr("table.ended_early") :
        names.length === 1 ? tr("table.winner", {name: names[0]}) :
        tr("table.winners", {names: window.refereeUI.names(names, T)}));
      w.hidden = false;
    } else w.hidden = true;
    // after the owner ended the game, only the owner starts another (rounds.rematch)
    $("rematch").hidden = !(view.over && canAct() && (me.role === "table" || !view.ended_by_table));
    const lookout = isLookout(view);
    const canStart = lookout && !view.over && (!rd || rd.status === "over");
    $("locked").hidden = lookout;
    $("locked").textContent = me.role === "seat" && view.players[view.lookout]
      ? tr("ctl.seat_locked", {name: view.players[view.lookout].name}) : tr("ctl.locked");
    $("start-form").hidden = !canStart;
    // the lookout's next step (drawing the card, rolling the die) comes first on the phone;
    // but a round just over shows its result first (a new user's trial: the new lookout's
    // phone showed the card pictures and die faces, their own verdict and penalty card ~900 px
    // down): the controls go below the penalties, and a button in the round's box leads there
    const ctl = $("controls");
    const over = !!(rd && rd.status === "over");
    const first = canStart && !over;
    if (first && ctl.nextElementSibling !== $("round")) app.insertBefore(ctl, $("round"));
    if (!first && ctl.previousElementSibling !== $("players").parentElement)
      $("players").parentElement.after(ctl);
    $("to-controls").hidden = !(canStart && over);
    if (canStart) loadCards(view.level);
    $("demo-round").hidden = !(canStart && view.demo);
    $("end-round").hidden = !(lookout && rd && !view.over && rd.status !== "over");
    $("end-game").hidden = !(me.role === "table" && !view.over && !view.demo);
    // a game over leaves no control but Rematch (above): no empty box, unless it says why
    // something was refused (a new-user trial)
    $("controls").hidden = view.over && !$("ctl-error").textContent;
    $("me").textContent = me.role === "seat" && view.players[me.seat]
      ? tr("me.seat", {name: view.players[me.seat].name}) : "";
    if (me.role === "table") showSeats(view);
  }

  // A round over: each builder's result in one line each, under who takes the penalty card,
  // at the top of the page (the builders' photos and words follow below)
  function roundVerdicts(view, rd) {
    const list = $("round-verdicts");
    const done = rd && (rd.status === "over" || (rd.taker !== null && rd.taker !== undefined));
    if (!done) { list.replaceChildren(); list.hidden = true; return; }
    list.replaceChildren(...rd.builders.map((b) => {
      const state = b.decided ? b.decided : b.state;
      return el("li", {class: me.role === "seat" && me.seat === b.seat ? "me" : ""},
        el("bdi", {}, view.players[b.seat].name),
        el("span", {class: "pill s-" + state}, el("span", {class: "sr-only"}, ": "),
          tr("state." + state)));
    }));
    list.hidden = !rd.builders.length;
  }

  // a seat's phone: its builder's DONE as one big button at the bottom; a phone place asks
  // for the photo first (the camera opens), a camera place freezes its frame at once
  let bigFile = null;
  function bigDone(view, rd) {
    const box = $("bigdone");
    const b = rd && me.role === "seat" && !view.over
      ? rd.builders.find((x) => x.seat === me.seat) : null;
    const show = !!(b && rd.status === "building" && b.state === "building");
    box.hidden = !show;
    document.body.classList.toggle("has-bigdone", show);
    if (!show) { $("bigdone-error").textContent = ""; return; }
    const cam = (view.places[b.place] || {}).camera || {};
    const btn = $("bigdone-btn");
    btn.onclick = async () => {
      window.refereeUI.buzz(60);
      const needsPhoto = cam.kind === "upload" || cam.state === "dead" ||
        cam.state === "stalled";
      if (needsPhoto) {
        if (bigFile) bigFile.remove();  // one chooser at a time, not one more per tap
        bigFile = el("input", {type: "file", accept: "image/*", capture: "environment",
          class: "file", hidden: ""});
        bigFile.addEventListener("change", async () => {
          if (!bigFile.files || !bigFile.files[0]) return;
          const fd = new FormData();
          fd.append("photo", bigFile.files[0]);
          btn.disabled = true;
          await call("/done/" + b.seat, fd, true, $("bigdone-error"));
          btn.disabled = false;
        });
        document.body.append(bigFile);
        bigFile.click();
        return;
      }
      btn.disabled = true;
      await call("/done/" + b.seat, new FormData(), true, $("bigdone-error"));
      btn.disabled = false;
    };
  }

  // the bar's height, for the room left below the page (app.css's --bigdone-h): it grows
  // with an error line in it, and with a language's longer words
  // (a page scrolled to its end stays at its end: what the grown bar covered shows again)
  if (window.ResizeObserver) {
    new ResizeObserver(() => {
      const page = document.documentElement;
      const atEnd = window.scrollY > 0 && window.scrollY + window.innerHeight >= page.scrollHeight - 4;
      page.style.setProperty("--bigdone-h",
        Math.ceil($("bigdone").getBoundingClientRect().height) + "px");
      if (atEnd) window.scrollTo(0, page.scrollHeight);
    }).observe($("bigdone"));
  }
  // the round's result's button down to the controls that start the next round
  $("to-controls").addEventListener("click", () => {
    $("controls").scrollIntoView({block: "start"});
  });

  // the table key's holder: each player's private link and QR code (fetched with the key)
  let seatsShown = "";
  async function showSeats(view) {
    const sig = view.players.map((p) => p.name).join("|");
    if (seatsShown === sig) return;
    seatsShown = sig;
    const r = await fetch("/api/tables/" + tableId + "/seats", {headers: keyHeaders()});
    if (!r.ok) return;
    const links = await r.json();
    const ul = $("seat-links");
    ul.replaceChildren();
    for (const s of links) {
      const url = window.refereeUI.base() + s.path;
      const q = await fetch("/api/tables/" + tableId + "/seats/" + s.seat + "/qr.svg",
        {headers: keyHeaders()});
      const img = el("img", {alt: "QR " + s.name, width: "120", height: "120"});
      if (q.ok) img.src = URL.createObjectURL(await q.blob());
      ul.append(el("li", {class: "seat-link"}, el("b", {}, s.name), img,
        el("a", {href: url, class: "muted", dir: "ltr"}, tr("seats.open"))));
    }
    $("seats").hidden = false;
  }

  // the level's cards as small pictures: tap the one drawn (or find it by its id)
  let cardsLevel = null, cardsLoaded = false;
  async function loadCards(level) {
    if (cardsLevel === level) return;
    cardsLevel = level;
    const r = await fetch("/api/cards/" + level);
    if (!r.ok) return;
    const box = $("card-picker");
    box.replaceChildren();
    cardsLoaded = false;
    for (const c of await r.json()) {
      const pic = el("div", {class: "grid-pic"});
      drawGrid(pic, c.grid);
      // each thumbnail fits a 52 px square, whatever the card's shape
      const w = Math.max(...c.grid.map((r) => r.length)), h = c.grid.length;
      pic.style.width = Math.round(48 * Math.min(1, w / h)) + "px";
      const btn = el("button", {type: "button", class: "card-pick", "data-id": c.id,
        "aria-pressed": "false", onclick: () => pickCard(c.id)}, pic, c.id);
      box.append(btn);
    }
    cardsLoaded = true;
    filterCards();  // what was typed while the list loaded applies to it
  }
  function pickCard(id) {
    $("start-form").elements.card_id.value = id;
    document.querySelectorAll(".card-pick").forEach((b) => {
      const on = b.dataset.id === id;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  $("card-search").addEventListener("input", () => filterCards());
  function filterCards() {
    const typed = $("card-search").value.trim();
    const q = typed.toUpperCase();
    let only = null, n = 0;
    document.querySelectorAll(".card-pick").forEach((b) => {
      const show = !q || b.dataset.id.toUpperCase().includes(q);
      b.hidden = !show;
      if (show) { n++; only = b.dataset.id; }
      if (b.dataset.id.toUpperCase() === q) only = b.dataset.id, n = 1;
    });
    if (n === 1) pickCard(only);
    // nothing matches: say so where the list was (a new user's trial typed N99, saw the
    // list go empty, and only heard of it at Start as "tap the card drawn first")
    // (an empty box, or a list still loading, says nothing: CI once saw "No card “”" when
    // the box was cleared before the level's cards had come)
    const none = $("card-none");
    const nothing = n === 0 && q !== "" && cardsLoaded;
    none.hidden = !nothing;
    none.textContent = nothing ? tr("ctl.no_card", {id: typed}) : "";
    if (n === 0 && q) pickCard("");
  }

  $("start-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = e.target;
    const typed = f.card.value.trim();
    const body = {};
    const die = f.die.value;
    if (!die) { window.refereeUI.sayError($("ctl-error"), tr("ctl.need_die")); return; }
    body.die = die;
    if (typed) {
      if (typed.includes("\n") || /[.]/.test(typed)) body.grid = typed; else body.card_id = typed;
    } else if (f.card_id.value) body.card_id = f.card_id.value;
    else { window.refereeUI.sayError($("ctl-error"), tr("ctl.need_card")); return; }
    startRound("/rounds", body);
  });
  // a round started: up to its card and die (a new user's trial stayed scrolled down at the
  // controls on a phone, under the card pictures, and saw nothing happen)
  async function startRound(path, body) {
    if (await act(path, body)) $("round").scrollIntoView({block: "start"});
  }
  $("draw-round").addEventListener("click", () => startRound("/rounds", {draw: true}));
  $("demo-round").addEventListener("click", () => startRound("/rounds/demo", {}));
  // voiding loses the round: a tap by mistake is asked about first
  $("end-round").addEventListener("click", () => {
    if (window.confirm(tr("ctl.end_confirm"))) act("/end", {});
  });
  // the owner's way to stop before the rules end the game (it then no longer counts
  // against the box's limit of tables): asked about first, as it cannot be undone
  $("end-game").addEventListener("click", () => {
    if (window.confirm(tr("ctl.end_game_confirm"))) act("/end-game", {});
  });
  $("rematch").addEventListener("click", () => act("/rematch", {}));

  // refresh camera previews every 2 s (only the images, not the page)
  setInterval(() => {
    document.querySelectorAll("img.preview").forEach((img) => {
      img.src = img.src.replace(/t=\d+/, "t=" + Date.now());
    });
  }, 2000);

  window.refereeUI.live("/ws/tables/" + tableId, T, $("live"),
    () => secret || seatKey || null,  // none: the view cookie decides
    (msg) => {
      if (msg.type === "welcome") {
        me = {role: msg.role, seat: msg.seat}; keepPending();
        window.refereeUI.keySwitch($("key-switch"), keyName, seatName, me.role);
      }
      if (msg.type === "view") {
        lastView = msg.view; render(msg.view); app.dataset.seq = msg.view.seq;
        viewed(msg.view.seq);
      }
    },
    (code) => {
      if (code === 4403 && pending) {  // the link's key is not this table's: keep ours
        dropPending();
        $("ctl-error").textContent = tr("err.link_key");
        return true;
      }
      $("ctl-error").textContent = tr("err.link_detail");  // this link opens it no more
      return false;
    });
})();
