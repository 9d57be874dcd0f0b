// A card table's page: the table screen (view link), a seat's phone (#s=KEY) or the owner's
// controls (#k=KEY). One WebSocket brings what this page's key may see: a seat its own view
// and legal actions, anyone else the public view. Nothing hidden is in the page itself.
"use strict";
(function () {
  const app = document.getElementById("app");
  const gameId = app.dataset.gameId;
  const game = app.dataset.game;
  const T = JSON.parse(document.getElementById("i18n").textContent);
  const tr = (key, vars) => window.refereeUI.tr(T, key, vars);
  const el = window.refereeUI.el;
  const SEP = window.refereeUI.sep(T);
  const $ = (id) => document.getElementById(id);
  // an error after a tap: said in its box, scrolled into sight (below the moves, it was off a
  // phone's screen)
  const sayError = window.refereeUI.sayError;
  const seatName = "referee.game.seat." + gameId, keyName = "referee.game.key." + gameId;

  // the table's or a seat's key: from the link's fragment, else saved on this phone
  let {secret, seatKey, pending} = window.refereeUI.linkKeys(keyName, seatName);
  let me = {role: "view", seat: null};
  let state = null;  // the last message: {type: "seat", view, legal, ...} or {type: "view", view}
  let wasMyTurn = false;
  let callLast = false;
  let pointsOpen = false;  // Tokaido's points so far, opened by this phone

  // a player's name, isolated from the words around it (a Latin name on a right-to-left page)
  const iso = window.refereeUI.iso;
  // the names the server gives an unnamed seat ("Bot 2", "Player 3") in the page's language
  const shown = (n) => {
    const m = /^(Bot|Player) ([1-9])$/.exec(n || "");
    return m ? tr(m[1] === "Bot" ? "g.bot_name" : "g.name_n", {n: Number(m[2])}) : n;
  };
  // a separator heard and copied, not seen: a badge or a count beside a name read as one
  // word with it ("Bot 2bot", "Ava8 cards")
  const hiddenSep = () => el("span", {class: "sr-only"}, tr("g.sep"));
  const name = (view, seat) => iso(shown(view.players[seat] && view.players[seat].name) || tr("g.open_seat"));

  // ---- words: cards, places, spaces and moves in the page's language (cardwords.js) --------
  const W = window.refereeCardWords(T, game, () => state && state.view.spaces);
  const words = W.action;
  // the last moves, oldest first: each action, then what the game did on its own after it
  // (its `then`: Tokaido's walks from an inn, the travellers its meals passed over, with
  // `passed`: why, and the spaces that did nothing for whoever stopped there, `stopped` and
  // `why`), marked `auto`
  const lastMoves = (view) => view.last.flatMap((mv) =>
    [mv, ...(mv.then || []).map((a) => Object.assign({auto: true}, a))]);
  const moveWords = (mv) => !mv.auto ? words(mv.action)
    : mv.passed ? W.passed(mv.passed)
    : mv.stopped !== undefined ? W.stopped(mv.stopped, mv.why) : W.walked(mv.action);

  // ---- TAKI --------------------------------------------------------------------------------
  function takiTile(code, attrs) {
    const colour = W.takiColour(code);
    return el("button", Object.assign({class: "tcard c" + colour, type: "button",
      "aria-label": W.card(code), title: W.card(code)}, attrs || {}), ...W.takiFace(code, el));
  }
  function takiBoard(view) {
    const t = view.table;
    const box = el("div", {class: "taki-board"});
    const top = takiTile(t.top || "?", {disabled: true, class: "tcard big c" + W.takiColour(t.top || "?")});
    box.append(el("div", {class: "row wrap center"}, top,
      el("div", {class: "stack tight"},
        el("span", {class: "swatch s" + t.active_color}, tr("g.active", {c: W.colour(t.active_color)})),
        el("span", {}, t.direction === 1 ? tr("g.dir.cw") : tr("g.dir.ccw")),
        t.pending_draw ? el("span", {class: "warn"}, W.signed(tr("g.pending", {n: t.pending_draw})))
          : null,
        // an open TAKI in plain words: what may follow it (cards of its color, one by one)
        t.taki_open ? el("span", {class: "warn taki-open"},
          tr("g.taki_open", {c: W.colour(t.run_color || t.active_color)})) : null,
        el("span", {class: "muted"}, tr("g.deck", {n: t.deck_size})))));
    return box;
  }
  function takiMine(s) {
    const hand = s.view.me.hand || [];
    const legal = s.legal;
    // "last card" is offered where it counts: with a move that ends the turn with one card
    // (the server's `calls`; the engine takes the call with any move of a hand of 2 or fewer)
    const calls = s.calls || [];
    const pick = (a) => withCall(s, a);
    const box = el("div", {class: "hand"});
    let colourFor = null;
    hand.forEach((code, i) => {
      const a = "play " + code;
      const ok = legal.includes(a) || legal.includes(a + " last") ||
        (code === "COLOR" && legal.some((x) => x.startsWith("play COLOR ")));
      box.append(takiTile(code, {disabled: ok ? false : "disabled", "data-focus": "card:" + i,
        onclick: () => {
        if (code === "COLOR" && !legal.includes(a)) { colourFor = true; renderColours(); }
        else act(pick(a));
      }}));
    });
    const colours = el("div", {class: "row wrap", id: "colours"});
    function renderColours() {
      colours.replaceChildren(...["R", "G", "B", "Y"].filter((c) => legal.some(
        (x) => x === "play COLOR " + c || x === "play COLOR " + c + " last")).map((c) =>
        el("button", {class: "button swatch-btn s" + c, type: "button", "data-focus": "colour:" + c,
          onclick: () => act(pick("play COLOR " + c))}, W.colour(c))));
    }
    const out = [box, colours];
    if (colourFor) renderColours();
    if (calls.length) {
      const cb = el("input", {type: "checkbox", id: "call-last"});
      cb.checked = callLast;
      cb.addEventListener("change", () => { callLast = cb.checked; });
      out.push(el("label", {class: "check big-check"}, cb, " " + tr("g.call_last")));
    }
    return {parts: out, used: (a) => a.startsWith("play ")};
  }

  // ---- Tukki Tukki -------------------------------------------------------------------------
  const PLACES = ["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4"];
  function tukkiBox(values, legal, mine) {
    const grid = el("div", {class: "tbox"});
    PLACES.forEach((p, i) => {
      const v = values[i];
      const acts = (legal || []).filter((a) => a === "reveal " + p || a === "place " + p);
      grid.append(el("button", {class: "tcell" + (v === "?" ? " down" : "") + (v === "P" ? " parrot" : ""),
        type: "button", disabled: acts.length ? false : "disabled",
        "data-focus": mine ? "place:" + p : null,
        "aria-label": W.place(p) + (v === "?" ? "" : SEP + W.card(v)), title: W.place(p),
        onclick: () => act(acts[0])}, v === "?" ? "" : W.card(v)));
    });
    return grid;
  }
  function tukkiBoard(view) {
    const t = view.table;
    const box = el("div", {class: "tukki-board"});
    box.append(el("p", {}, tr("g.round", {n: t.round, of: t.rounds}), SEP,
      tr("g.bin_top", {c: t.bin.length ? W.card(t.bin[t.bin.length - 1]) : "–"}), SEP,
      tr("g.stock", {n: t.deck_size})));
    if (t.drawn_from) box.append(el("p", {class: "muted"}, tr("g.drawn_from." + t.drawn_from)));
    const boxes = el("div", {class: "boxes"});
    t.boxes.forEach((b, p) => {
      if (me.role === "seat" && p === me.seat) return;
      boxes.append(el("figure", {class: "pbox" + (view.current_player === p ? " current" : "")},
        tukkiBox(b, [], false), el("figcaption", {}, name(view, p) + SEP + window.refereeUI.num(t.totals[p]))));
    });
    box.append(boxes);
    // the round before: its points and each box as it ended, folded under one line (a new
    // user's trial saw the totals jump at a new round with every card face down again)
    if (t.round_scores && t.last_boxes && t.round > 1 && !view.over) {
      const scores = view.players.map((p, i) => name(view, i) + " " + window.refereeUI.num(
        t.round_scores[i])).join(tr("g.sep"));
      const ended = el("details", {class: "last-round"}, el("summary", {},
        tr("g.tukki.round_ended", {n: t.round - 1}) + " " + scores));
      const all = el("div", {class: "boxes"});
      t.last_boxes.forEach((b, p) => all.append(el("figure", {class: "pbox"},
        tukkiBox(b, [], false), el("figcaption", {}, name(view, p) + SEP +
          tr("g.points", {n: t.round_scores[p]})))));
      ended.append(all);
      box.append(ended);
    }
    return box;
  }
  function tukkiMine(s) {
    const t = s.view.me;
    const parts = [];
    // the opening, said once it is this seat's turn: what to do (it showed eight face-down
    // cards and "Your turn!")
    const left = (t.opening_left || [])[s.seat];
    if (t.phase === "opening" && s.view.current_player === s.seat && left)
      parts.push(el("p", {class: "hint"}, tr("g.tukki.opening_hint", {n: left})));
    // the card this seat drew (another seat's draw from the pile is "?": only words of one's own)
    if (t.drawn && t.drawn !== "?" && s.view.current_player === s.seat)
      parts.push(el("p", {class: "drawn"}, tr(t.drawn_from === "bin" ? "g.taken" : "g.drawn", {c: W.card(t.drawn)})));
    parts.push(tukkiBox(t.boxes[s.seat], s.legal, true));
    return {parts: parts, used: (a) => /^(reveal|place) [ab][1-4]$/.test(a)};
  }

  // ---- Tokaido -----------------------------------------------------------------------------
  function tokaidoBoard(view) {
    const t = view.table, spaces = view.spaces || [];
    const road = el("ol", {class: "road", dir: "ltr"});
    spaces.forEach((kind, i) => {
      const here = t.position.map((pos, p) => pos === i ? p : -1).filter((p) => p >= 0);
      road.append(el("li", {class: "space k-" + kind + (here.length ? " busy" : ""), title: W.space(i)},
        el("span", {class: "n"}, window.refereeUI.num(i)), el("span", {class: "kind"}, W.spaceKind(kind)),
        ...here.map((p) => el("span", {class: "traveller p" + p}, name(view, p)))));
    });
    // each traveller: character, points (the scoring track: as if the journey ended now),
    // coins and space, and what the character's power does
    const who = el("ul", {class: "travellers"});
    // (each part on one line: "space 17" never split between its word and its number; the
    // points and coins, which the table screen's players list has beside, only on a phone)
    const part = (text, kind) => el("span", {class: kind || ""}, SEP, el("span", {class: "part"}, text));
    t.position.forEach((pos, p) => who.append(el("li", {}, name(view, p),
      part(W.character(t.characters[p])),
      t.points ? part(tr("g.points", {n: t.points[p].total}), "purse") : null,
      part(tr("g.coins", {n: t.coins[p]}), "purse"), part(tr("g.space_at", {n: pos})),
      W.power(t.characters[p]) ? el("span", {class: "power muted"}, W.power(t.characters[p])) : null)));
    // what is on offer, face up for all: encounters, story cards, souvenirs, temples
    const counted = (d) => Object.entries(d || {}).map(([k, n]) => W.counted(k, n));
    const offer = el("ul", {class: "offer"}, ...[
      ["encounter", (t.encounter_face || []).map(W.card)], ["story", (t.story_face || []).map(W.card)],
      ["souvenir", counted(t.souvenirs)], ["temple", counted(t.temples)],
    ].map(([k, list]) => el("li", {}, tr("g.offer." + k, {list: list.join(tr("g.sep")) || "–"}))));
    // the points by part so far, folded away (the end shows them in the result); opened, it
    // stays open while the game goes on (the board is drawn anew at every move)
    const parts = !view.over && t.points ? el("details", {class: "points-now", open: pointsOpen ? "" : null,
      ontoggle: (e) => { pointsOpen = e.target.open; }},
      el("summary", {}, tr("tokaido.points_now")),
      el("p", {class: "muted"}, tr("tokaido.points_note")), tokaidoPoints(view, false)) : null;
    return el("div", {class: "tokaido-board"}, road, offer, who, parts);
  }
  // a traveller's points and coins: "12 points · 3 coins"
  const tokaidoPurse = (t, p) => (t.points ? tr("g.points", {n: t.points[p].total}) + SEP : "") +
    tr("g.coins", {n: t.coins[p]});
  function tokaidoMine(s) {
    const t = s.view.me, p = s.seat;
    const held = Object.entries(t.collected[p] || {}).map(([k, n]) => W.counted(k, n));
    const power = W.power(t.characters[p]);
    return {parts: [
      // who this player travels as, and what that character's power does
      el("p", {class: "character"}, el("strong", {}, tr("tokaido.your_character",
        {c: W.character(t.characters[p])})), power ? " " + power : null),
      el("p", {class: "purse"}, tokaidoPurse(t, p)),
      el("p", {class: "held"}, tr("g.your_things", {list: held.join(tr("g.sep")) || tr("g.nothing")})),
    ], used: () => false};
  }

  // each traveller's points by part (parts nobody scored left out), as a table: at the end,
  // and during play as if the game ended now (without its caption: its summary says so)
  function tokaidoPoints(view, caption) {
    const pts = view.table.points;
    if (!pts) return null;
    const num = window.refereeUI.num;
    const parts = Object.keys(pts[0]).filter((k) => k !== "total" && pts.some((r) => r[k]));
    const head = el("tr", {}, el("th", {}, ""), ...view.players.map((p) => el("th", {}, el("bdi", {}, shown(p.name)))));
    const rows = [...parts, "total"].map((k) => el("tr", {class: k === "total" ? "total" : ""},
      el("th", {scope: "row"}, tr("g.tk.part." + k)), ...pts.map((r) => el("td", {}, num(r[k])))));
    return el("table", {class: "points"}, caption === false ? null : el("caption", {}, tr("g.tk.points")),
      el("thead", {}, head),
      el("tbody", {}, ...rows));
  }

  const BOARD = {taki: takiBoard, tukki: tukkiBoard, tokaido: tokaidoBoard};
  const MINE = {taki: takiMine, tukki: tukkiMine, tokaido: tokaidoMine};

  // ---- rendering ---------------------------------------------------------------------------
  function render() {
    if (!state) return;
    const view = state.view;
    app.dataset.seq = view.seq;  // the view shown (tests wait for it to move on)
    app.classList.toggle("over", Boolean(view.over || view.ended));
    document.body.classList.toggle("screen", me.role !== "seat");
    document.documentElement.classList.toggle("screen", me.role !== "seat");  // its sizes
    $("who").textContent = me.role === "seat" ? tr("g.you_are", {name: name(view, me.seat)})
      : me.role === "table" ? tr("g.you_own") : tr("g.screen");
    // whose turn
    const cur = view.current_player;
    const mine = me.role === "seat" && cur === me.seat && !view.over;
    let turn = "";
    if (view.ended) turn = tr("g.ended");
    else if (view.over) turn = tr("g.over");
    else if (mine) turn = tr("g.your_turn");
    else if (cur !== null && view.players[cur].open) turn = tr("g.waiting_join", {n: cur + 1});
    // a person's seat whose link nobody has opened yet: its player is not at the table (a
    // new user's trial waited on "Noa is playing" while Noa had not opened her link)
    else if (cur !== null && !view.players[cur].bot && !view.players[cur].joined)
      turn = tr("g.waiting_link", {name: name(view, cur)});
    else if (cur !== null) turn = tr("g.turn_of", {name: name(view, cur)}) +
      (view.players[cur].bot ? SEP + tr("g.bot_thinks") : "");
    $("turn").textContent = turn;
    const lastMv = lastMoves(view).pop();
    $("last-move").textContent = lastMv ? tr("g.last_move", {who: iso(shown(lastMv.name) || "?"), what: moveWords(lastMv)}) : "";
    $("turn").className = "turn" + (mine ? " mine" : "");
    if (mine && !wasMyTurn) window.refereeUI.buzz([80, 60, 80]);
    wasMyTurn = mine;
    // the result; a TAKI score is the cards still in hand (it read like points)
    const score = (n) => game === "taki" ? tr("g.cards_left", {n: window.refereeUI.num(n)})
      : window.refereeUI.num(n);
    if (view.over && view.scores) {
      const best = Math.max(...view.returns);
      $("result").replaceChildren(el("p", {}, tr("g.winners", {names: window.refereeUI.names(
        view.players.filter((p, i) => view.returns[i] === best && best > 0).map((p) => shown(p.name)),
        T)})),
        // numbered by place at the end, the winner first (seats level share a number)
        el("ol", {class: "scores"}, ...rankOrder(view).map((i) =>
          el("li", {class: view.returns[i] === best ? "won" : "", value: view.ranks[i]},
            el("bdi", {}, shown(view.players[i].name)), ": " + score(view.scores[i])))),
        ...[game === "tokaido" ? tokaidoPoints(view) : null].filter(Boolean));  // null reads "null"
      $("result").hidden = false;
    } else $("result").hidden = true;
    // a game the owner ended stays ended: only the owner starts another (the server refuses a seat)
    $("rematch-box").hidden = !(me.role === "seat" && view.over && !view.ended);
    // the owner's button starts a new game at any time: mid-game it says "start over"
    $("owner-rematch").textContent = !view.over && !view.ended ? tr("g.restart") : tr("g.rematch");
    // the board
    $("board").replaceChildren(BOARD[game](view));
    // players
    $("players").replaceChildren(...view.players.map((p, i) => el("li", {class: "player" +
      (cur === i ? " current" : "") + (me.role === "seat" && me.seat === i ? " me" : "")},
      el("span", {}, el("bdi", {}, shown(p.name) || tr("g.open_seat")),
        p.bot ? el("span", {class: "pill"}, hiddenSep(), tr("g.bot")) : null),
      el("span", {class: "muted"}, hiddenSep(), seatFacts(view, i)))));
    // the last moves, newest first
    $("last").replaceChildren(...lastMoves(view).reverse().map((mv) => el("li", {class: mv.auto ? "auto" : ""},
      el("strong", {}, el("bdi", {}, shown(mv.name) || "?")), " " + moveWords(mv))));
    // the room code
    $("join-box").hidden = !view.code;
    $("room-code").textContent = view.code || "";
    $("join-link").href = "/games/join?code=" + encodeURIComponent(view.code || "");
    // the table screen shows a QR code of the join page, the room code filled in
    const qr = $("join-qr");
    if (view.code && me.role !== "seat" && qr.dataset.code !== view.code) {
      qr.dataset.code = view.code;
      qr.src = "/api/games/" + gameId + "/join.svg?c=" + encodeURIComponent(view.code);
    }
    qr.hidden = !(view.code && me.role !== "seat");
    // a seat's own cards and moves
    if (state.type === "seat") renderMine(state);
    $("mine").hidden = state.type !== "seat";
    fitLast();  // last: what is shown or hidden above (the room code, the QR code) moves it
  }
  // The table screen shows whole last moves only: as many as fit between the players and
  // the screen's bottom (the view link's screen; the owner's page, which has its controls
  // below, keeps the stylesheet's height), the oldest that do not fit wholly left out. Nobody
  // scrolls a screen across the table; a phone scrolls its list. Drawn again when the
  // screen's size changes.
  const landscape = window.matchMedia("(min-width: 900px)");
  function fitLast() {
    const list = $("last");
    list.style.maxHeight = "";
    if (me.role === "seat" || !landscape.matches) return;
    if (me.role === "view") {
      const below = parseFloat(getComputedStyle(document.querySelector("main")).paddingBottom) || 0;
      const room = window.innerHeight - list.getBoundingClientRect().top - window.scrollY - below;
      const one = list.firstElementChild ? list.firstElementChild.getBoundingClientRect().height : 0;
      const least = Math.ceil(one) + 4;  // one move at least
      list.style.maxHeight = Math.max(Math.floor(room), least) + "px";
      // and what lies below the list in the page (a margin, an empty box) also fits
      const over = document.documentElement.scrollHeight - window.innerHeight;
      if (over > 0) list.style.maxHeight = Math.max(Math.floor(room - over), least) + "px";
    }
    while (list.children.length > 1 && list.scrollHeight > list.clientHeight + 1)
      list.lastElementChild.remove();
  }
  // (a seat's phone is not drawn again: its address bar showing or hiding resizes it, and a
  // colour being chosen would close)
  window.addEventListener("resize", () => { if (me.role !== "seat") render(); });
  // the seats in their order at the end: by place, then in seat order
  const rankOrder = (view) => view.players.map((p, i) => i)
    .sort((a, b) => view.ranks[a] - view.ranks[b] || a - b);
  function seatFacts(view, i) {
    const t = view.table;
    if (game === "taki") return tr("g.cards_n", {n: t.hand_size[i]});
    if (game === "tukki") return tr("g.points", {n: t.totals[i]});
    if (game === "tokaido") return tokaidoPurse(t, i);
    return "";
  }
  // TAKI's draw on a +2 stack takes the whole stack: "Take 4 cards", not "Draw a card"
  // (a new user's trial drew 4 with it)
  const drawWords = (s, a) => game === "taki" && a === "draw" && s.view.table.pending_draw
    ? tr("g.do.draw_n", {n: s.view.table.pending_draw}) : null;
  // the move to send: with the "last card" call when it is ticked and counts with this move
  const withCall = (s, a) => callLast && (s.calls || []).includes(a) ? a + " last" : a;
  function renderMine(s) {
    const m = MINE[game](s);
    $("mine-body").replaceChildren(...m.parts);
    const rest = s.legal.filter((a) => !m.used(a) && !(game === "taki" && a.endsWith(" last") &&
      s.legal.includes(a.slice(0, -5))));
    $("moves").replaceChildren(...rest.map((a) => el("button", {class: "button move", type: "button",
      "data-focus": "move:" + a,
      onclick: () => act(withCall(s, a))}, drawWords(s, a) || words(a, true),
      // what it costs (Tokaido's coins), on the button, before the tap
      (s.costs || {})[a] ? el("span", {class: "cost"}, SEP + tr("g.coins", {n: s.costs[a]})) : null)));
  }

  // the seat this phone played until its key stopped opening it (4403): the first view
  // after says whether a bot took it or the owner made it a new link (it said "a new link"
  // for a seat given to a bot)
  let lostSeat = null;
  // a view older than the one shown (an answer that the live feed overtook) is dropped
  function show(msg) {
    if (state && msg.view.seq < state.view.seq) return;
    state = msg;
    const lost = lostSeat === null ? null : msg.view.players[lostSeat];
    if (lost) {
      $("link-note").textContent = tr(lost.bot ? "g.seat_to_bot" : "g.seat_replaced");
      lostSeat = null;
    }
    window.refereeUI.keepingFocus(render);
  }

  // ---- acting ------------------------------------------------------------------------------
  // An engine's refusal ({code, params} of a 422) in the page's language (i18n "refusal.<code>"),
  // or null when the answer has no code this page knows. Seats read as names, colours and
  // space kinds in words, lists joined; cards and actions stay in notation.
  function refusalWords(body) {
    const key = body && typeof body.code === "string" ? "refusal." + body.code : "";
    if (!key || T[key] === undefined) return null;
    const vars = {};
    for (const [k, v] of Object.entries(body.params || {})) {
      if (Array.isArray(v)) vars[k] = v.join(", ");
      else if (k === "color") vars[k] = tr("g.color." + v);
      else if (k === "kind") vars[k] = spaceWords(v);
      else if (["seat", "owner", "winner"].includes(k) && state && typeof v === "number") vars[k] = name(state.view, v);
      else vars[k] = typeof v === "number" ? v : String(v);  // a number in the page's digits
    }
    return tr(key, vars);
  }
  let busy = false;
  async function act(action) {
    if (busy || !action || me.role !== "seat") return;
    busy = true;  // a second tap while the first is on its way is dropped
    app.dataset.busy = "1";
    $("act-error").textContent = "";
    try {
      const r = await fetch("/api/games/" + gameId + "/seats/" + me.seat + "/act", {method: "POST",
        headers: {"Content-Type": "application/json", "X-Seat-Key": seatKey},
        // the moves the move was chosen after: a late retry after another move plays nothing
        body: JSON.stringify({action: action, plays: state ? state.view.plays : undefined})});
      const body = await r.json();
      if (!r.ok) { sayError($("act-error"), refusalWords(body) || window.refereeErrorWords(T, body, String(r.status))); return; }
      callLast = false;
      show(Object.assign({type: "seat"}, body));
    } catch (e) {
      sayError($("act-error"), tr("g.net_error"));
    } finally { busy = false; delete app.dataset.busy; }
  }
  async function ownerCall(path, body) {
    $("owner-error").textContent = "";
    const r = await fetch("/api/games/" + gameId + path, {method: path.endsWith("seats") ? "GET" : "POST",
      headers: Object.assign({"X-Table-Secret": secret},
        body ? {"Content-Type": "application/json"} : {}),
      body: body ? JSON.stringify(body) : undefined});
    const out = await r.json();
    if (!r.ok) { sayError($("owner-error"), window.refereeErrorWords(T, out, String(r.status))); return null; }
    return out;
  }
  async function renderOwner() {
    const seats = await ownerCall("/seats");
    if (!seats) return;
    const list = $("seat-links");
    list.replaceChildren();
    for (const s of seats) {
      const sel = el("select", {"aria-label": tr("g.seat_kind")},
        el("option", {value: ""}, tr("g.kind.person")),
        ...["random", "heuristic", "easy", "medium", "hard"].map((b) => el("option", {value: b}, tr("g.kind." + b))));
      sel.value = s.bot || "";
      sel.addEventListener("change", async () => {
        if (await ownerCall("/seats/" + s.seat + "/bot", {bot: sel.value || null})) renderOwner();
      });
      const li = el("li", {class: "seat-link"}, el("strong", {}, (shown(s.name) || tr("g.open_seat"))), sel);
      if (s.joined && !s.bot) {
        // taken by its player: no link here (only that phone has its key); a lost phone gets
        // a new link, which cuts the old one off
        const again = el("button", {class: "button alt small", type: "button"}, tr("g.new_link"));
        again.addEventListener("click", async () => {
          if (window.confirm(tr("g.new_link_confirm", {name: shown(s.name)}))) {
            if (await ownerCall("/seats/" + s.seat + "/bot", {bot: null})) renderOwner();
          }
        });
        li.append(el("span", {class: "muted"}, tr("g.joined")), again);
      } else if (s.link) {
        const url = window.refereeUI.base() + s.link;
        li.append(el("a", {href: url, class: "small", dir: "ltr"}, tr("g.seat_link")));
        const img = el("img", {alt: tr("table.qr"), width: 140, height: 140});
        fetch("/api/games/" + gameId + "/seats/" + s.seat + "/qr.svg", {headers: {"X-Table-Secret": secret}})
          .then((r) => r.ok ? r.blob() : null).then((b) => { if (b) img.src = URL.createObjectURL(b); });
        li.append(img);
      } else if (s.open) li.append(el("span", {class: "muted"}, tr("g.open_hint")));
      list.append(li);
    }
  }
  // one tap, one game: the button waits for the answer (a double tap dealt two)
  $("rematch").addEventListener("click", async () => {
    $("rematch").disabled = true;
    try {
      const after = state ? "?after=" + state.view.game_no : "";
      const r = await fetch("/api/games/" + gameId + "/rematch" + after, {method: "POST", headers: {"X-Seat-Key": seatKey}});
      if (!r.ok) sayError($("act-error"), window.refereeErrorWords(T, await r.json(), String(r.status)));
    } finally { $("rematch").disabled = false; }
  });
  // a game still in play is lost by a new game or by ending it: one tap on the owner's phone
  // is asked again first (a new user's trial: a rematch mid-game wiped it without a word)
  const inPlay = () => Boolean(state && !state.view.over && !state.view.ended);
  $("owner-rematch").addEventListener("click", async () => {
    if (inPlay() && !window.confirm(tr("g.rematch_confirm"))) return;
    $("owner-rematch").disabled = true;
    const after = state ? "?after=" + state.view.game_no : "";
    try { await ownerCall("/rematch" + after, null); } finally { $("owner-rematch").disabled = false; }
  });
  $("owner-end").addEventListener("click", () => {
    if (!inPlay() || window.confirm(tr("g.end_confirm"))) ownerCall("/end", null);
  });

  // ---- a seat's link: this phone takes the seat -------------------------------------------
  // The link the owner hands out holds an invitation: the phone exchanges it for a key of its
  // own, and the invitation opens nothing more (whoever else saw the link cannot read this
  // seat unnoticed). A seat's own key comes back unchanged.
  async function takeSeat() {
    if (!seatKey) return;
    let r;
    try {
      r = await fetch("/api/games/" + gameId + "/claim", {method: "POST", headers: {"X-Seat-Key": seatKey}});
    } catch (e) { return; }  // no connection: the live feed says so
    if (r.ok) {
      const out = await r.json();
      seatKey = out.key;
      pending = {kind: "s", key: out.key};
      window.refereeUI.keepKey(keyName, seatName, pending);  // the only copy: kept at once
    } else if ((r.status === 401 || r.status === 403) && pending && pending.kind === "s") {
      // another phone took this link's seat (the server says so), or the key opens nothing
      // here (mistyped, or the owner made a new link): say so, and keep this phone's key;
      // unless this phone is the one that took it (its link opened again): nothing to say
      const out = await r.json().catch(() => ({}));
      pending = null;
      ({secret, seatKey} = window.refereeUI.savedKeys(keyName, seatName));
      // this phone's own seat key, even while it shows the table's controls (a new user's
      // trial: "Use the table's controls", then the seat's link again, stayed on the
      // controls with "already opened on another phone"): its link opened again plays it
      const mine = localStorage.getItem(seatName);
      if (out.code === "table.link-taken" && mine) {
        const own = await fetch("/api/games/" + gameId + "/claim",
          {method: "POST", headers: {"X-Seat-Key": mine}}).catch(() => null);
        if (own && own.ok) {
          secret = null;
          seatKey = mine;
          pending = {kind: "s", key: mine};  // kept as the key this phone uses, once welcome
          return;
        }
      }
      $("link-note").textContent = out.code === "table.link-taken"
        ? window.refereeErrorWords(T, out, String(r.status)) : tr("err.link_key");
      $("link-note").hidden = false;
    }
  }

  // ---- live --------------------------------------------------------------------------------
  let ownerSeq = "";
  const seatsKey = (view) => JSON.stringify(view.players);
  takeSeat().catch(() => {}).then(() => window.refereeUI.live("/ws/games/" + gameId, T, $("live"),
    () => secret || seatKey || null,
    (msg) => {
      if (msg.type === "welcome") {
        me = {role: msg.role, seat: msg.seat};
        if (pending) window.refereeUI.keepKey(keyName, seatName, pending);
        pending = null;
        window.refereeUI.keySwitch($("key-switch"), keyName, seatName, me.role);
        $("owner").hidden = me.role !== "table";
        if (me.role === "table") renderOwner();
        return;
      }
      show(msg);
      if (me.role === "table" && msg.view && ownerSeq !== seatsKey(msg.view)) { ownerSeq = seatsKey(msg.view); renderOwner(); }
    },
    (code) => {
      if (code === 4403 && pending) {  // the link's key is not this table's: keep ours
        pending = null;
        ({secret, seatKey} = window.refereeUI.savedKeys(keyName, seatName));
        // say so: an old seat link would otherwise open the table screen without a word
        $("link-note").textContent = tr("err.link_key");
        $("link-note").hidden = false;
        return true;
      }
      if (code === 4403 && seatKey && !secret) {
        // this phone's seat key opens nothing any more: the owner made the seat a new link
        // (a lost phone, or a bot and back). Say so, forget it, and show the table instead
        localStorage.removeItem(seatName);
        ({secret, seatKey} = window.refereeUI.savedKeys(keyName, seatName));
        $("link-note").textContent = tr("g.seat_replaced");
        $("link-note").hidden = false;
        lostSeat = me.seat;
        return true;
      }
      $("turn").textContent = tr("err.link_detail");
      return false;
    }));
})();
