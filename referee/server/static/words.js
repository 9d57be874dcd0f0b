// Server errors in the page's language: an error with a code the page has words for
// (messages "refusal.<code>": a table limit, a new table's seats that clash, why a camera
// does not work) says it with its params filled in, in every language; else English pages
// get the server's own words, the others the sentence of the error's kind (messages
// "err.kind.<Error>"), never English on a Persian, Hebrew or Arabic page.
"use strict";
window.refereeErrorWords = function (T, data, fallback) {
  const lang = document.documentElement.lang;
  const code = data && typeof data.code === "string" ? "refusal." + data.code : "";
  if (code && T[code] !== undefined) {
    const vars = {};  // numbers stay numbers: tr writes them in the page's digits
    // a camera's device, folder or photo name reads left to right as it is, also inside
    // right-to-left words (a URL's last "/" jumped to its front on a Hebrew page)
    const ltr = data.code.startsWith("camera.") || data.code.startsWith("photo.") ||
      data.code.startsWith("table.station-");
    for (const [k, v] of Object.entries(data.params || {}))
      vars[k] = Array.isArray(v) ? window.refereeUI.names(v, T) : (typeof v === "number" ? v
        : (ltr ? "\u2066" + String(v) + "\u2069" : String(v)));
    return window.refereeUI.tr(T, code, vars);
  }
  const kind = T["err.kind." + (data && data.error)];
  // a validator's wording (body.players.0: ...) helps nobody at a table: its plain sentence
  if (kind && (lang !== "en" || data.error === "RequestValidationError")) return kind;
  const detail = data && typeof data.detail === "string" ? data.detail : "";
  return detail || kind || fallback;
};

// Digits as each language's own texts write them: Persian in Persian digits (fa.json's
// "۲ تا ۴"), the others in 0-9 as their texts do.
const NUMBERING = {fa: "arabext"};
const numberFormats = {};
const pluralRules = {};  // one Intl object per language, not one per message drawn
function pluralForm(lang, n) {
  pluralRules[lang] = pluralRules[lang] || new Intl.PluralRules(lang);
  return pluralRules[lang].select(n);
}
function localNumber(lang, n) {
  let s = String(n);
  if (NUMBERING[lang]) {
    numberFormats[lang] = numberFormats[lang] ||
      new Intl.NumberFormat(lang + "-u-nu-" + NUMBERING[lang], {useGrouping: false});
    s = numberFormats[lang].format(n);
  }
  // a negative number reads left to right, its minus before it, also in right-to-left words
  // after a name (Tukki Tukki's "Cy: -2" read "2- :Cy" on a Hebrew page)
  return n < 0 ? "\u2066" + s + "\u2069" : s;
}

// The pages' two helpers: a message in the page's language with its {placeholders} filled,
// and an element built from a tag, attributes ("class", "on<event>" handlers, others as
// attributes; false and null left out) and children (text or elements).
window.refereeUI = {
  // A count {n} picks the language's plural form where it has one (key + "." + the CLDR
  // category: "g.coins.one" is "1 coin"); numbers are written in the language's digits.
  tr(T, key, vars) {
    const lang = document.documentElement.lang || "en";
    let k = key;
    if (vars && typeof vars.n === "number") {
      const form = key + "." + pluralForm(lang, vars.n);
      if (T[form] !== undefined) k = form;
    }
    let s = T[k] !== undefined ? T[k] : key;
    for (const v in vars || {}) {
      const value = typeof vars[v] === "number" ? localNumber(lang, vars[v]) : vars[v];
      s = s.split("{" + v + "}").join(value);
    }
    return s;
  },
  // what separates the parts of a line ("merchant · 4 coins"), the message "ui.part_sep"
  // (Persian's zero "۰" is a dot, so Persian takes its comma instead of the middle dot)
  sep(T) { return T["ui.part_sep"] !== undefined ? T["ui.part_sep"] : " · "; },
  // a table's name as shown: the demo table's shipped name ("Demo table", models/demo) in
  // the page's language, any other name as it was typed
  tableName(T, name, demo) {
    return demo && name === "Demo table" && T["table.demo_name"] ? T["table.demo_name"] : name;
  },
  // a name isolated: one that starts or ends in Latin letters or punctuation keeps its
  // place in right-to-left words
  iso(text) { return "\u2068" + text + "\u2069"; },
  // names as a list, each isolated, joined by the language's list comma (messages "g.sep":
  // Persian and Arabic write "،"): "Ava, Ben", "Ava، Ben"
  names(list, T) {
    const sep = T && T["g.sep"] !== undefined ? T["g.sep"] : ", ";
    return list.map(window.refereeUI.iso).join(sep);
  },
  // a number in the page language's digits
  num(n) { return localNumber(document.documentElement.lang || "en", n); },
  // a text's digits 0-9 in the page language's (a card's "+2", Tukki Tukki's "12"): only
  // for what is shown, never for what is sent or kept
  digits(text) {
    const lang = document.documentElement.lang || "en";
    return NUMBERING[lang] ? String(text).replace(/[0-9]/g, (d) => localNumber(lang, +d)) : String(text);
  },
  // a text as a screen reader says it: without the direction marks and isolates that keep
  // it in order on the screen (a "+3" card's label read its marks aloud, or spelled them)
  spoken(text) { return String(text).replace(/[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g, ""); },
  el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "class") e.className = attrs[k];
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
      else if (k === "aria-label" && attrs[k] !== false && attrs[k] !== null)
        e.setAttribute(k, window.refereeUI.spoken(attrs[k]));
      else if (attrs[k] !== false && attrs[k] !== null) e.setAttribute(k, attrs[k]);
    }
    for (const kid of kids) if (kid !== null && kid !== undefined && kid !== false)
      e.append(typeof kid === "string" || typeof kid === "number"
        ? document.createTextNode(String(kid)) : kid);
    return e;
  },
};

// A short vibration, only once the person has touched the page: a vibration before any
// tap is blocked by the browser, with a notice in its console ("Your turn!" arrives by the
// live feed, maybe before the first tap). Where the browser cannot tell
// (no navigator.userActivation), a tap or key seen by this page counts.
let touched = false;
for (const kind of ["pointerdown", "keydown"])
  window.addEventListener(kind, () => { touched = true; }, {capture: true, once: true});
window.refereeUI.buzz = function (pattern) {
  const active = navigator.userActivation ? navigator.userActivation.hasBeenActive : touched;
  if (active && navigator.vibrate) navigator.vibrate(pattern);
};

// The box's address for a link that another phone will open (the page's <meta
// name="referee-base">: the network address when this page was opened as localhost, as the
// QR codes use), else this page's own.
window.refereeUI.base = function () {
  const m = document.querySelector('meta[name="referee-base"]');
  return (m && m.content) || location.origin;
};

// The owner's own link in the language this page shows (?hl=, before any #fragment): the
// link opens at the box's network address, where this page's language choice (a cookie of
// the localhost address) is not known (a new-user trial: a Persian owner's control page
// opened in English). A hint, never kept: a phone that chose its language keeps it (as
// ?lang=, the link passed on to a Persian phone set English there for a year: a later trial).
window.refereeUI.withLang = function (url) {
  const lang = document.documentElement.lang;
  const cut = url.indexOf("#");
  const [head, tail] = cut < 0 ? [url, ""] : [url.slice(0, cut), url.slice(cut)];
  return head + (head.includes("?") ? "&" : "?") + "hl=" + encodeURIComponent(lang) + tail;
};

// A table's live feed: the socket says hello with the phone's key (never in the URL), shows
// "live" in `pill`, hands each message to `message`, and reconnects with a growing pause;
// when the server refuses the link (4401, 4403, 4404) `refused(code)` decides: true, try
// again at once (another key was put back), false, stop.
window.refereeUI.live = function (path, T, pill, hello, message, refused) {
  let delay = 500;
  const say = (on) => {
    pill.textContent = window.refereeUI.tr(T, on ? "live.on" : "live.off");
    pill.className = "pill " + (on ? "on" : "off");
  };
  const connect = () => {
    const proto = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(proto + location.host + path);
    ws.onopen = () => {
      ws.send(JSON.stringify({type: "hello", key: hello()}));
      delay = 500;
      say(true);
    };
    ws.onmessage = (ev) => message(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      say(false);
      if ([4401, 4403, 4404].includes(ev.code)) {
        if (refused(ev.code)) setTimeout(connect, 100);
        return;
      }
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  connect();
};

// A table's keys on this phone: the link's fragment (#k= a table key, #s= a seat key; never
// sent in a URL) is tried first and taken out of the address bar; the key saved on this phone
// (localStorage) stays until the server welcomes the new one (`keepKey`), so a mistyped
// link never overwrites it. A phone may hold both (the owner opened a seat link to play on
// it): the link opened last decides which one the page uses, and neither is dropped (the
// table's key was, and the owner's phone lost the table's controls for good).
const useName = (seatName) => seatName + ".use";
// A bare view link (?v= and no key in its fragment: the table's screen, a laptop or a TV)
// shows the public view whatever keys this browser holds: the owner who made the game on
// that laptop, or a player who once opened a seat link there, would otherwise show their
// hidden cards or the table's controls to the room (a break-it trial: "You play as Ava …
// Your cards" on the view link).
window.refereeUI.savedKeys = function (keyName, seatName) {
  if (new URLSearchParams(location.search).has("v")) return {secret: null, seatKey: null};
  const secret = localStorage.getItem(keyName), seatKey = localStorage.getItem(seatName);
  if (seatKey && (!secret || localStorage.getItem(useName(seatName)) === "s")) {
    return {secret: null, seatKey: seatKey};
  }
  return {secret: secret, seatKey: null};
};
window.refereeUI.linkKeys = function (keyName, seatName) {
  let {secret, seatKey} = window.refereeUI.savedKeys(keyName, seatName);
  let pending = null;
  const m = location.hash.match(/[#&]([ks])=([A-Za-z0-9_\-]+)/);
  if (m) {
    pending = {kind: m[1], key: m[2]};
    if (m[1] === "k") { secret = m[2]; seatKey = null; } else { seatKey = m[2]; secret = null; }
    // a seat's or the control link carries the view token too (its cookie is set): without
    // it the address is this phone's own page, whose reload takes the key saved here
    const q = new URLSearchParams(location.search);
    q.delete("v");
    history.replaceState(null, "", location.pathname + (q.toString() ? "?" + q : ""));
  }
  // a link to this same page with another key (the owner taps their seat's link in the tab
  // that shows the table) changes only the fragment, which loads nothing: load it
  window.addEventListener("hashchange", () => {
    if (/[#&][ks]=/.test(location.hash)) location.reload();
  });
  return {secret: secret, seatKey: seatKey, pending: pending};
};
window.refereeUI.keepKey = function (keyName, seatName, pending) {
  localStorage.setItem(pending.kind === "k" ? keyName : seatName, pending.key);
  localStorage.setItem(useName(seatName), pending.kind);
};
// A new view redraws a page's lists and buttons; whatever had the keyboard's focus there was
// either kept (a photo field's input) or drawn anew (a button), and the focus went to the
// page's start: Space then opened nothing, and a keyboard or screen-reader user lost their
// place whenever another phone acted. `draw()` runs, and the focus is put back: on the same
// element if it is still in the page, else on the new one with the same data-focus key
// (or id).
window.refereeUI.keepingFocus = function (draw) {
  const was = document.activeElement;
  const key = was && was.dataset ? was.dataset.focus : undefined;
  const id = was ? was.id : "";
  draw();
  if (!was || was === document.body || document.activeElement === was) return;
  if (was.isConnected) { was.focus({preventScroll: true}); return; }
  const again = (key && document.querySelector("[data-focus=\"" + CSS.escape(key) + "\"]")) ||
    (id && document.getElementById(id));
  if (again && !again.disabled) again.focus({preventScroll: true});
};

// On a seat's page, a phone that also holds the table's key offers to go back to it
// (`box`: the page's #key-switch, its button reloads the page as the table's controls).
window.refereeUI.keySwitch = function (box, keyName, seatName, role) {
  box.hidden = !(role === "seat" && localStorage.getItem(keyName));
  box.querySelector("button").onclick = () => {
    localStorage.setItem(useName(seatName), "k");
    location.reload();
  };
};

// A form sent one at a time: its submit button is off while the box answers, and a second
// tap meanwhile sends nothing (a double tap on "Create" made two tables). `send` gets the
// submit event (its default already prevented).
window.refereeUI.oneAtATime = function (form, send) {
  let busy = false;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (busy) return;
    busy = true;
    const buttons = [...form.querySelectorAll("button[type=submit]")];
    buttons.forEach((b) => { b.disabled = true; });
    try { await send(ev); } finally {
      busy = false;
      buttons.forEach((b) => { b.disabled = false; });
    }
  });
};

// POST `body` as JSON: {r, data} (data null when the answer is not JSON), or {r: null} when
// the box is not reached (the browser's own words for that are English)
window.refereeUI.postJSON = async function (url, body, headers) {
  let r;
  try {
    r = await fetch(url, {method: "POST", body: JSON.stringify(body),
      headers: Object.assign({"Content-Type": "application/json"}, headers || {})});
  } catch (e) {
    return {r: null, data: null};
  }
  let data = null;
  try { data = await r.json(); } catch (e) { /* not JSON: a proxy's page */ }
  return {r: r, data: data};
};

// Where a person is looking: an element scrolled just into sight when it is not (an error
// drawn below the buttons tapped, off a phone's screen, or under the seat's fixed DONE bar,
// whose height is the page's scroll-padding: app.css). Nothing moves when it is in sight, or
// when it is itself in a fixed bar (always on the screen).
window.refereeUI.reveal = function (e) {
  if (!e || !e.isConnected || !e.getClientRects().length) return;
  for (let a = e; a && a !== document.body; a = a.parentElement)
    if (getComputedStyle(a).position === "fixed") return;
  const page = getComputedStyle(document.documentElement), own = getComputedStyle(e);
  const above = (parseFloat(page.scrollPaddingTop) || 0) + (parseFloat(own.scrollMarginTop) || 0);
  const below = (parseFloat(page.scrollPaddingBottom) || 0) +
    (parseFloat(own.scrollMarginBottom) || 0);
  const r = e.getBoundingClientRect();
  if (r.top >= above && r.bottom <= window.innerHeight - below) return;
  e.scrollIntoView({block: "nearest"});
};
// An error after a tap, said where the person looks: its words in `box` (role="alert": read
// out at once), and the box scrolled into sight (a new user's trial: "The table has moved on
// since" was drawn ~350 px below a phone's screen, and nothing seemed to happen). An empty
// text clears the box.
window.refereeUI.sayError = function (box, text) {
  box.textContent = text || "";
  if (text) window.refereeUI.reveal(box);
};

// A link copied to the clipboard: the Clipboard API where the page may use it (localhost,
// https), else the older copy of a selected text (a phone on the box's http:// network
// address has no navigator.clipboard). True when copied.
window.refereeUI.copyText = async function (text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (e) { /* refused: try the older way */ }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.top = "0";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  let done = false;
  try { done = document.execCommand("copy"); } catch (e) { done = false; }
  area.remove();
  return done;
};
// A "Copy link" button for the link `link` (an <a>): the button says "Copied" for a moment
// (and a screen reader hears it: the line beside it is a live region), or why not.
window.refereeUI.copyButton = function (T, link) {
  const tr = (key) => window.refereeUI.tr(T, key);
  const said = window.refereeUI.el("span", {class: "copy-said muted", role: "status"});
  const btn = window.refereeUI.el("button", {class: "button alt copy", type: "button",
    onclick: async () => {
      const ok = await window.refereeUI.copyText(link.href);
      said.textContent = tr(ok ? "ui.copied" : "ui.copy_failed");
      clearTimeout(btn.refereeTimer);
      btn.refereeTimer = setTimeout(() => { said.textContent = ""; }, 4000);
    }}, tr("ui.copy"));
  return window.refereeUI.el("div", {class: "row wrap copy-row"}, btn, said);
};

// A table just made: its maker's first steps on this phone, in `box`: open the table's
// controls (the control link), or, playing too, their own seat (its link) with the table's
// key kept on this phone as the control link keeps it (the seat's page then offers the
// controls back). A new user's trial found only two raw links. `seats`: the people's seats,
// [{seat, name, path}]. Opened at this page's own address, where this phone's storage is (a
// link for another phone has the box's network address).
window.refereeUI.openHere = function (T, box, control, keyName, secret, seats) {
  const el = window.refereeUI.el;
  const tr = (key, vars) => window.refereeUI.tr(T, key, vars);
  const here = (path) => window.refereeUI.withLang(location.origin + path);
  const kids = [el("a", {class: "button", id: "open-table", href: here(control)},
    tr("made.open_table"))];
  if (seats.length) {
    kids.push(el("p", {class: "muted"}, tr("made.mine")), el("div", {class: "row wrap"},
      ...seats.map((s) => el("a", {class: "button alt play-as", href: here(s.path),
        "data-seat": s.seat, onclick: () => localStorage.setItem(keyName, secret)},
      tr("made.play_as", {name: window.refereeUI.iso(s.name)})))));
  }
  box.replaceChildren(...kids);
  box.hidden = false;
};
