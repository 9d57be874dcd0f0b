// Server errors in the page's language: English pages get the server's own words, the others
// the sentence of the error's kind (messages "err.kind.<Error>"), never English on a Persian,
// Hebrew or Arabic page.
"use strict";
window.refereeErrorWords = function (T, data, fallback) {
  const lang = document.documentElement.lang;
  const kind = T["err.kind." + (data && data.error)];
  // a validator's wording (body.players.0: ...) helps nobody at a table: its plain sentence
  if (kind && (lang !== "en" || data.error === "RequestValidationError")) return kind;
  const detail = data && typeof data.detail === "string" ? data.detail : "";
  return detail || kind || fallback;
};

// The pages' two helpers: a message in the page's language with its {placeholders} filled,
// and an element built from a tag, attributes ("class", "on<event>" handlers, others as
// attributes; false and null left out) and children (text or elements).
window.refereeUI = {
  tr(T, key, vars) {
    let s = T[key] !== undefined ? T[key] : key;
    for (const k in vars || {}) s = s.split("{" + k + "}").join(vars[k]);
    return s;
  },
  el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "class") e.className = attrs[k];
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
      else if (attrs[k] !== false && attrs[k] !== null) e.setAttribute(k, attrs[k]);
    }
    for (const kid of kids) if (kid !== null && kid !== undefined && kid !== false)
      e.append(typeof kid === "string" || typeof kid === "number"
        ? document.createTextNode(String(kid)) : kid);
    return e;
  },
};
